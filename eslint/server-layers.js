// The server's layers (routes → domain → db, no cycles) as flat-config objects for sync-server.
// A placeholder: the server-storage work replaces this file with the real rules. The import-x
// plugin and the TypeScript resolver are already set up for every file by eslint/imports.js.
export default [];
