import { RouterProvider, createBrowserRouter } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './routes';
import { UpdatePrompt } from './UpdatePrompt';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
      <UpdatePrompt />
    </AppProviders>
  );
}
