import { describe, expect, it } from 'vitest';
import { upgradeMessage } from '@chronicler/schema';
import {
  ACHIEVEMENT_TOASTS,
  AI_TOASTS,
  ALERTS,
  AUTH_TOASTS,
  BOOK_TOASTS,
  CHAPTER_TOASTS,
  CHARACTER_TOASTS,
  CHECKOUT_TOASTS,
  COLLABORATION_TOASTS,
  DASHBOARD_TOASTS,
  GATE_TOASTS,
  LOCATION_TOASTS,
  SERIES_TOASTS,
  SUBSCRIPTION_TOASTS,
  TIMELINE_TOASTS,
  TOASTS,
  TOAST_BEHAVIOUR,
  VALIDATION_TOASTS,
  alreadySubscribedToast,
  errorText,
  featureLockedToast,
  newAchievementsToast,
  timelineEventDeleteFailedToast,
  timelineEventSaveFailedToast,
  timelineReorderFailedToast,
  withError,
} from './toasts.ts';

const pick = (t: { title: string; message?: string }) => ({ title: t.title, message: t.message });

describe('000 §8 catalogue', () => {
  it('words the account toasts as specified', () => {
    expect(pick(TOASTS.loginFailed)).toEqual({ title: 'Login failed', message: 'Invalid credentials' });
    expect(pick(TOASTS.registrationFailed)).toEqual({ title: 'Registration failed', message: 'Registration failed' });
    expect(pick(TOASTS.logoutFailed)).toEqual({ title: 'Logout failed', message: 'An error occurred during logout' });
    expect(pick(TOASTS.loginSuccessful)).toEqual({ title: 'Login successful', message: 'Welcome back' });
    expect(TOASTS.registrationSuccessful.title).toBe('Registration successful');
    expect(pick(TOASTS.loggedOut)).toEqual({ title: 'Logged out', message: undefined });
  });

  it('words the dashboard, AI and achievement toasts as specified', () => {
    expect(pick(TOASTS.noActiveSeries)).toEqual({ title: 'No active series', message: 'Please create or select a series first' });
    expect(pick(TOASTS.noSeriesFound)).toEqual({ title: 'No series found', message: 'Create a series first to get AI suggestions' });
    expect(pick(TOASTS.suggestionsGenerationFailed)).toEqual({
      title: 'Error generating suggestions',
      message: 'Unable to generate new suggestions at this time',
    });
    expect(pick(TOASTS.textTooShort)).toEqual({
      title: 'Text too short',
      message: 'Please provide at least 100 characters for meaningful analysis.',
    });
    expect(pick(TOASTS.chapterAdded)).toEqual({ title: 'Chapter added', message: 'New chapter has been added to your book' });
    expect(pick(TOASTS.seriesUpdated)).toEqual({ title: 'Series updated', message: 'Your series has been updated successfully' });
    expect(pick(TOASTS.readyToWrite)).toEqual({ title: 'Ready to write', message: 'Opening your current chapter' });
    expect(TOASTS.seriesUpdateFailed.title).toBe('Update failed');
    expect(TOASTS.newInsightsGenerated.title).toBe('New insights generated');
    expect(pick(TOASTS.suggestionGenerated)).toEqual({ title: 'New suggestion generated', message: 'Your new writing suggestion is ready.' });
    expect(pick(TOASTS.analysisComplete)).toEqual({ title: 'Analysis complete', message: 'Your writing has been analyzed.' });
    expect(pick(TOASTS.suggestionInserted)).toEqual({ title: 'Suggestion inserted', message: 'The suggestion has been added to your text.' });
    expect(TOASTS.suggestionFailed.title).toBe('Failed to generate suggestion');
    expect(TOASTS.analysisFailed.title).toBe('Analysis failed');
    expect(pick(TOASTS.achievementCheckFailed)).toEqual({
      title: 'Error checking achievements',
      message: 'There was an error checking for new achievements.',
    });
    expect(pick(TOASTS.noNewAchievements)).toEqual({
      title: 'No new achievements',
      message: 'Keep writing and creating to unlock more achievements.',
    });
  });

  it('words the plan and checkout toasts as specified', () => {
    expect(pick(TOASTS.plansLoadFailed)).toEqual({ title: 'Error', message: 'Failed to load subscription plans' });
    expect(pick(TOASTS.checkoutSessionFailed)).toEqual({
      title: 'Error creating checkout session',
      message: 'An error occurred while setting up the payment process.',
    });
    expect(pick(TOASTS.missingProductInformation)).toEqual({
      title: 'Missing product information',
      message: 'Product ID and amount are required to proceed with checkout.',
    });
    expect(pick(TOASTS.paymentIntentFailed)).toEqual({
      title: 'Error creating payment',
      message: 'An error occurred while setting up the payment process.',
    });
    expect(TOASTS.paymentFailed.title).toBe('Payment Failed');
    expect(pick(TOASTS.paymentSuccessful)).toEqual({ title: 'Payment Successful', message: 'Thank you for your purchase!' });
  });

  it('builds Feature Locked from the tier upgrade message', () => {
    expect(pick(featureLockedToast('loremaster'))).toEqual({
      title: 'Feature Locked',
      message: 'This feature requires the Loremaster tier or higher. Please upgrade your subscription to access it.',
    });
    expect(featureLockedToast('wordsmith').message).toBe(upgradeMessage('wordsmith'));
  });

  it('counts new achievements and names the plan already subscribed', () => {
    expect(pick(newAchievementsToast(3))).toEqual({ title: 'New achievements earned!', message: 'You earned 3 new achievements.' });
    expect(newAchievementsToast(1).message).toBe('You earned 1 new achievement.');
    expect(pick(alreadySubscribedToast('wordsmith'))).toEqual({
      title: 'Already subscribed',
      message: 'You are already subscribed to the The Wordsmith plan.',
    });
  });
});

describe('001 §8 catalogue', () => {
  it('titles the story-structure failures as specified, falling back to An unexpected error occurred', () => {
    const titles = {
      bookUpdateFailed: 'Error updating book',
      bookDeleteFailed: 'Error deleting book',
      bookCreateFailed: 'Error creating book',
      seriesCreateFailed: 'Error creating series',
      characterAddFailed: 'Error adding character',
      characterUpdateFailed: 'Error updating character',
      characterDeleteFailed: 'Error deleting character',
      locationAddFailed: 'Error adding location',
      locationUpdateFailed: 'Error updating location',
      locationDeleteFailed: 'Error deleting location',
    } as const;
    for (const [key, title] of Object.entries(titles)) {
      const t = TOASTS[key as keyof typeof titles];
      expect(pick(t)).toEqual({ title, message: 'An unexpected error occurred' });
      expect(t.variant).toBe('destructive');
    }
    expect(pick(TOASTS.relationshipAddFailed)).toEqual({ title: 'Error adding relationship', message: 'Failed to create relationship' });
    expect(pick(TOASTS.chapterSaveFailed)).toEqual({ title: 'Error saving chapter', message: 'An error occurred while saving' });
    expect(pick(TOASTS.imageGenerationFailed)).toEqual({
      title: 'Generation Failed',
      message: 'There was a problem generating your image. Please try again.',
    });
  });

  it('words the timeline failures with the error message', () => {
    expect(pick(timelineEventSaveFailedToast('create', new Error('500: boom')))).toEqual({
      title: 'Failed to create timeline event: 500: boom',
      message: undefined,
    });
    expect(timelineEventSaveFailedToast('edit', new Error('gone')).title).toBe('Failed to update timeline event: gone');
    expect(pick(timelineEventDeleteFailedToast(new Error('nope')))).toEqual({
      title: 'Error',
      message: 'Failed to delete timeline event: nope',
    });
    expect(pick(timelineReorderFailedToast('offline'))).toEqual({ title: 'Error', message: 'Failed to reorder events: offline' });
    expect(timelineReorderFailedToast(undefined).message).toBe('Failed to reorder events: An unexpected error occurred');
  });

  it('words the collaboration toasts', () => {
    expect(pick(TOASTS.invitationAccepted)).toEqual({
      title: 'Invitation accepted',
      message: 'You have joined the collaborative series.',
    });
    expect(TOASTS.invitationSent.title).toBe('Invitation sent');
    expect(TOASTS.invitationDeclined.title).toBe('Invitation declined');
    expect(TOASTS.collaborativeSeriesCreateFailed.title).toBe('Error creating series');
    expect(TOASTS.invitationSendFailed.title).toBe('Error sending invitation');
    expect(TOASTS.invitationAcceptFailed.title).toBe('Error accepting invitation');
    expect(TOASTS.invitationDeclineFailed.title).toBe('Error declining invitation');
    expect(ALERTS.collaborationLoadFailed.title).toBe('Error loading collaboration data');
    expect(pick(ALERTS.collaborationNotAvailable)).toEqual({
      title: 'Feature not available',
      message: 'Community collaboration is only available on the Loremaster tier and above.',
    });
  });

  it('words the story-structure successes', () => {
    expect(pick(TOASTS.chapterSaved)).toEqual({ title: 'Chapter saved', message: 'Your changes have been saved' });
    expect(pick(TOASTS.chapterCreated)).toEqual({ title: 'Chapter created', message: 'Your chapter has been created successfully' });
    expect(TOASTS.chapterUpdated.title).toBe('Chapter updated');
    expect(pick(TOASTS.eventDeleted)).toEqual({ title: 'Event deleted', message: 'The timeline event has been removed.' });
    expect(pick(TOASTS.timelineUpdated)).toEqual({ title: 'Timeline updated', message: 'Event order has been saved.' });
    expect(TOASTS.eventCreated.title).toBe('Event created successfully');
    expect(TOASTS.eventUpdated.title).toBe('Event updated successfully');
    expect(TOASTS.imageGenerated.title).toBe('Image Generated');
    const titles = [
      TOASTS.bookCreated,
      TOASTS.bookUpdated,
      TOASTS.bookDeleted,
      TOASTS.seriesCreated,
      TOASTS.characterAdded,
      TOASTS.characterUpdated,
      TOASTS.characterDeleted,
      TOASTS.relationshipAdded,
      TOASTS.locationAdded,
      TOASTS.locationUpdated,
      TOASTS.locationDeleted,
    ].map((t) => t.title);
    expect(titles).toEqual([
      'Book created',
      'Book updated',
      'Book deleted',
      'Series created',
      'Character added',
      'Character updated',
      'Character deleted',
      'Relationship added',
      'Location added',
      'Location updated',
      'Location deleted',
    ]);
  });

  it('words the Premium Feature gate toast', () => {
    expect(pick(TOASTS.premiumFeature)).toEqual({
      title: 'Premium Feature',
      message: 'AI Character Image generation is available in the Wordsmith plan and higher.',
    });
  });

  it('titles the validation toasts of 001 §5', () => {
    expect(pick(TOASTS.chapterTitleMissing)).toEqual({ title: 'Missing title', message: 'Please enter a title for the chapter' });
    expect(pick(TOASTS.editorTitleRequired)).toEqual({ title: 'Title required', message: 'Please enter a title for your chapter' });
    expect(pick(TOASTS.editorBookRequired)).toEqual({
      title: 'Book required',
      message: 'A chapter must be associated with a book. Please select a book first.',
    });
    expect(pick(TOASTS.seriesTitleMissing)).toEqual({ title: 'Missing information', message: 'Please provide a title for your series' });
    expect(pick(TOASTS.noSeriesSelected)).toEqual({ title: 'No series selected', message: 'Please select a series first' });
    expect(pick(TOASTS.invalidRelationship)).toEqual({
      title: 'Invalid relationship',
      message: 'A character cannot have a relationship with themselves',
    });
    expect(pick(TOASTS.imageDescriptionRequired)).toEqual({
      title: 'Description Required',
      message: 'Please enter a description for your character.',
    });
  });
});

describe('catalogue shape', () => {
  const groups = [
    AUTH_TOASTS,
    DASHBOARD_TOASTS,
    AI_TOASTS,
    ACHIEVEMENT_TOASTS,
    SUBSCRIPTION_TOASTS,
    CHECKOUT_TOASTS,
    GATE_TOASTS,
    SERIES_TOASTS,
    BOOK_TOASTS,
    CHAPTER_TOASTS,
    CHARACTER_TOASTS,
    LOCATION_TOASTS,
    TIMELINE_TOASTS,
    COLLABORATION_TOASTS,
    VALIDATION_TOASTS,
  ];

  it('has unique names across areas, so no toast hides another', () => {
    const total = groups.reduce((n, g) => n + Object.keys(g).length, 0);
    expect(Object.keys(TOASTS)).toHaveLength(total);
  });

  it('styles every failure destructive and every success default', () => {
    for (const [name, t] of Object.entries(TOASTS)) {
      const failure = /Failed|failed|^Error|Missing|required|Required|Invalid|^No (active )?series|too short/.test(
        t.title,
      ) && !/^No new/.test(t.title);
      expect([name, t.variant]).toEqual([name, failure ? 'destructive' : 'default']);
    }
  });
});

describe('error text', () => {
  it("uses the error's own message, else the toast's fallback", () => {
    expect(withError(TOASTS.loginFailed, new Error('Account locked')).message).toBe('Account locked');
    expect(withError(TOASTS.loginFailed, new Error('')).message).toBe('Invalid credentials');
    expect(withError(TOASTS.bookUpdateFailed, undefined).message).toBe('An unexpected error occurred');
    expect(withError(TOASTS.relationshipAddFailed, { message: 'Too many' }).message).toBe('Too many');
    expect(withError(TOASTS.relationshipAddFailed, 42).message).toBe('Failed to create relationship');
    expect(withError(TOASTS.loggedOut, null).message).toBe('An unexpected error occurred');
    expect(withError(TOASTS.loginFailed, 'Nope').title).toBe('Login failed');
    expect(errorText('   ', 'fallback')).toBe('fallback');
  });
});

describe('toaster behaviour (000 §9)', () => {
  it('shows one toast for 5 s, max 420 px, F8 to focus, swipe right 50 px', () => {
    expect(TOAST_BEHAVIOUR).toEqual({
      maxVisible: 1,
      durationMs: 5000,
      removeDelayMs: 1_000_000,
      swipeDirection: 'right',
      swipeThresholdPx: 50,
      hotkey: ['F8'],
      maxWidthPx: 420,
    });
  });
});
