/** Validation and inline messages, word for word from the spec (000 §5, 001 §5). */
export const MESSAGES = {
  auth: {
    usernameRequired: 'Username is required',
    passwordRequired: 'Password is required',
    usernameMin: 'Username must be at least 3 characters',
    passwordMin: 'Password must be at least 6 characters',
    displayNameMin: 'Display name must be at least 2 characters',
    displayNameRequired: 'Display name is required',
    passwordsDoNotMatch: 'Passwords do not match',
    invalidEmail: 'Please enter a valid email address',
  },
  series: {
    titleRequired: 'Please provide a title for your series',
    nameRequired: 'Series name is required',
    totalBooksMin: 'A series needs at least 1 book',
  },
  book: {
    seriesRequired: 'Please select a series first',
    titleRequired: 'Please provide a title for your book',
  },
  chapter: {
    titleRequired: 'Please enter a title for the chapter',
    editorTitleRequired: 'Please enter a title for your chapter',
    bookRequired: 'A chapter must be associated with a book. Please select a book first.',
    noCurrentBook: 'No current book selected',
  },
  character: {
    nameRequired: 'Character name is required',
    seriesRequired: 'No series selected',
    imageDescriptionRequired: 'Please enter a description for your character.',
  },
  relationship: {
    self: 'A character cannot have a relationship with themselves',
  },
  location: {
    nameRequired: 'Location name is required',
    seriesRequired: 'No series selected',
  },
  timeline: {
    titleRequired: 'Title is required',
    colorInvalid: 'Colour must be a hex value such as #6366f1',
  },
  collaboration: {
    nameMin: 'Series name must be at least 3 characters',
    descriptionMin: 'Description must be at least 10 characters',
    invalidEmail: 'Please enter a valid email address',
    roleRequired: 'Please select a role',
  },
  ai: {
    seriesRequired: 'Series ID is required',
    textTooShort: 'Please provide at least 100 characters for meaningful analysis.',
  },
  confirm: {
    deleteBook: 'Are you sure you want to delete this book? This action cannot be undone.',
    deleteCharacter: 'Are you sure you want to delete this character? This action cannot be undone.',
    deleteLocation: 'Are you sure you want to delete this location? This action cannot be undone.',
    deleteTimelineEvent: 'Are you sure you want to delete this timeline event?',
    leaveUnsaved: 'You have unsaved changes. Save before leaving?',
  },
} as const;

/** Minimum lengths (000 §9, 001 §9). */
export const MINIMUMS = {
  username: 3,
  password: 6,
  displayName: 2,
  analysisText: 100,
  collaborativeSeriesName: 3,
  collaborativeSeriesDescription: 10,
} as const;
