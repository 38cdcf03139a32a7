/**
 * The web app's toast copy (moved out of packages/schema: the server never shows a toast): the
 * toast catalogues of spec 000 §8 and 001 §8 (and the titled validation toasts of 001 §5),
 * word for word. Failures are styled destructive (000 §8).
 *
 * Fixed toasts are constants. A failure whose text is "message, else a fallback" holds the fallback
 * here; pass it through `withError(toast, error)` to show the error's own message when it has one.
 * Toasts whose text is built from a value have builders below.
 *
 * Plain validation and inline field messages, which the server sends too, live in
 * @chronicler/schema `messages.ts`.
 */
import { MESSAGES, PLANS, requiredTierFor, upgradeMessage, type PlanName } from '@chronicler/schema';
import {
  AUTH_TOASTS,
  FALLBACK_MESSAGES,
  errorText,
  failToast as fail,
  okToast as ok,
  type ToastContent,
} from './toast-core';

// The core (types, fallbacks, withError, the account toasts, the toaster's behaviour) is its own
// module so the first screen loads it without this whole catalogue (the first-route JavaScript
// budget).
export * from './toast-core';

// ---------------------------------------------------------------------------------------------
// Spec 000 §8: accounts, dashboard, AI, achievements, plans, checkout


export const DASHBOARD_TOASTS = {
  noActiveSeries: fail('No active series', 'Please create or select a series first'),
  readyToWrite: ok('Ready to write', 'Opening your current chapter'),
  seriesUpdated: ok('Series updated', 'Your series has been updated successfully'),
  /** Edit Series failed: server message. */
  seriesUpdateFailed: fail('Update failed', FALLBACK_MESSAGES.unexpected),
  chapterAdded: ok('Chapter added', 'New chapter has been added to your book'),
} as const;

export const AI_TOASTS = {
  noSeriesFound: fail('No series found', 'Create a series first to get AI suggestions'),
  suggestionsGenerationFailed: fail('Error generating suggestions', 'Unable to generate new suggestions at this time'),
  newInsightsGenerated: ok('New insights generated'),
  suggestionGenerated: ok('New suggestion generated', 'Your new writing suggestion is ready.'),
  /** Single suggestion failed: message. */
  suggestionFailed: fail('Failed to generate suggestion', FALLBACK_MESSAGES.unexpected),
  analysisComplete: ok('Analysis complete', 'Your writing has been analyzed.'),
  /** Analysis failed: message. */
  analysisFailed: fail('Analysis failed', FALLBACK_MESSAGES.analyzeWriting),
  textTooShort: fail('Text too short', MESSAGES.ai.textTooShort),
  suggestionInserted: ok('Suggestion inserted', 'The suggestion has been added to your text.'),
} as const;

export const ACHIEVEMENT_TOASTS = {
  noNewAchievements: ok('No new achievements', 'Keep writing and creating to unlock more achievements.'),
  achievementCheckFailed: fail('Error checking achievements', 'There was an error checking for new achievements.'),
} as const;

export const SUBSCRIPTION_TOASTS = {
  plansLoadFailed: fail('Error', 'Failed to load subscription plans'),
  checkoutSessionFailed: fail('Error creating checkout session', FALLBACK_MESSAGES.paymentSetup),
} as const;

export const CHECKOUT_TOASTS = {
  missingProductInformation: fail(
    'Missing product information',
    'Product ID and amount are required to proceed with checkout.',
  ),
  paymentIntentFailed: fail('Error creating payment', FALLBACK_MESSAGES.paymentSetup),
  /** Payment failed: the payment provider's message. */
  paymentFailed: fail('Payment Failed', FALLBACK_MESSAGES.unexpected),
  paymentSuccessful: ok('Payment Successful', 'Thank you for your purchase!'),
} as const;

export const GATE_TOASTS = {
  /** 001 §6: AI character images without the aiCharacterImages flag. */
  premiumFeature: ok('Premium Feature', 'AI Character Image generation is available in the Wordsmith plan and higher.'),
} as const;

// ---------------------------------------------------------------------------------------------
// Spec 001 §8: series, books, chapters, characters, locations, timeline, collaboration

export const SERIES_TOASTS = {
  seriesCreated: ok('Series created'),
  seriesCreateFailed: fail('Error creating series', FALLBACK_MESSAGES.unexpected),
} as const;

export const BOOK_TOASTS = {
  bookCreated: ok('Book created'),
  bookUpdated: ok('Book updated'),
  bookDeleted: ok('Book deleted'),
  bookCreateFailed: fail('Error creating book', FALLBACK_MESSAGES.unexpected),
  bookUpdateFailed: fail('Error updating book', FALLBACK_MESSAGES.unexpected),
  bookDeleteFailed: fail('Error deleting book', FALLBACK_MESSAGES.unexpected),
} as const;

export const CHAPTER_TOASTS = {
  /** The editor's create toast (the chapter dialog shows the same title). */
  chapterCreated: ok('Chapter created', 'Your chapter has been created successfully'),
  chapterUpdated: ok('Chapter updated'),
  chapterSaved: ok('Chapter saved', 'Your changes have been saved'),
  /** Offline, a save is kept on the device and sent later: saying "saved" alone would overstate it (docs/spec-differences.md). */
  chapterSavedOffline: ok('Chapter saved on this device', 'Your changes will sync when you are back online'),
  chapterSaveFailed: fail('Error saving chapter', FALLBACK_MESSAGES.chapterSave),
} as const;

export const CHARACTER_TOASTS = {
  characterAdded: ok('Character added'),
  characterUpdated: ok('Character updated'),
  characterDeleted: ok('Character deleted'),
  characterAddFailed: fail('Error adding character', FALLBACK_MESSAGES.unexpected),
  characterUpdateFailed: fail('Error updating character', FALLBACK_MESSAGES.unexpected),
  characterDeleteFailed: fail('Error deleting character', FALLBACK_MESSAGES.unexpected),
  relationshipAdded: ok('Relationship added'),
  relationshipAddFailed: fail('Error adding relationship', FALLBACK_MESSAGES.relationship),
  imageGenerated: ok('Image Generated'),
  imageGenerationFailed: fail('Generation Failed', 'There was a problem generating your image. Please try again.'),
} as const;

export const LOCATION_TOASTS = {
  locationAdded: ok('Location added'),
  locationUpdated: ok('Location updated'),
  locationDeleted: ok('Location deleted'),
  locationAddFailed: fail('Error adding location', FALLBACK_MESSAGES.unexpected),
  locationUpdateFailed: fail('Error updating location', FALLBACK_MESSAGES.unexpected),
  locationDeleteFailed: fail('Error deleting location', FALLBACK_MESSAGES.unexpected),
} as const;

export const TIMELINE_TOASTS = {
  eventCreated: ok('Event created successfully'),
  eventUpdated: ok('Event updated successfully'),
  eventDeleted: ok('Event deleted', 'The timeline event has been removed.'),
  timelineUpdated: ok('Timeline updated', 'Event order has been saved.'),
  eraOrderSaved: ok('Era order saved', 'The timeline follows your order of eras.'),
  eraOrderFailed: fail('Error', 'The era order could not be saved.'),
} as const;

export const COLLABORATION_TOASTS = {
  invitationSent: ok('Invitation sent'),
  invitationAccepted: ok('Invitation accepted', 'You have joined the collaborative series.'),
  invitationDeclined: ok('Invitation declined'),
  collaborativeSeriesCreateFailed: fail('Error creating series', FALLBACK_MESSAGES.collaborativeSeries),
  invitationSendFailed: fail('Error sending invitation', FALLBACK_MESSAGES.sendInvitation),
  invitationAcceptFailed: fail('Error accepting invitation', FALLBACK_MESSAGES.acceptInvitation),
  invitationDeclineFailed: fail('Error declining invitation', FALLBACK_MESSAGES.declineInvitation),
} as const;

/** Titled validation toasts of 001 §5; their texts come from `messages.ts`. */
export const VALIDATION_TOASTS = {
  chapterTitleMissing: fail('Missing title', MESSAGES.chapter.titleRequired),
  editorTitleRequired: fail('Title required', MESSAGES.chapter.editorTitleRequired),
  editorBookRequired: fail('Book required', MESSAGES.chapter.bookRequired),
  seriesTitleMissing: fail('Missing information', MESSAGES.series.titleRequired),
  noSeriesSelected: fail('No series selected', MESSAGES.book.seriesRequired),
  invalidRelationship: fail('Invalid relationship', MESSAGES.relationship.self),
  imageDescriptionRequired: fail('Description Required', MESSAGES.character.imageDescriptionRequired),
} as const;

/** Every fixed toast, by name. Names are unique across the areas above. */
export const TOASTS = {
  ...AUTH_TOASTS,
  ...DASHBOARD_TOASTS,
  ...AI_TOASTS,
  ...ACHIEVEMENT_TOASTS,
  ...SUBSCRIPTION_TOASTS,
  ...CHECKOUT_TOASTS,
  ...GATE_TOASTS,
  ...SERIES_TOASTS,
  ...BOOK_TOASTS,
  ...CHAPTER_TOASTS,
  ...CHARACTER_TOASTS,
  ...LOCATION_TOASTS,
  ...TIMELINE_TOASTS,
  ...COLLABORATION_TOASTS,
  ...VALIDATION_TOASTS,
} as const;
export type ToastName = keyof typeof TOASTS;

// ---------------------------------------------------------------------------------------------
// Builders for toasts with values in their text

/** "Feature Locked" with the tier upgrade message (000 §8). */
export function featureLockedToast(tier: PlanName): ToastContent {
  return ok('Feature Locked', upgradeMessage(tier));
}

/** "Already subscribed" when the chosen plan is the current plan (000 §4); nothing is sent. */
export function alreadySubscribedToast(plan: PlanName): ToastContent {
  return ok('Already subscribed', `You are already subscribed to the ${PLANS[plan].displayName} plan.`);
}

/** "New achievements earned!" with the count (000 §8). */
export function newAchievementsToast(count: number): ToastContent {
  return ok('New achievements earned!', `You earned ${count} new ${count === 1 ? 'achievement' : 'achievements'}.`);
}

/** 'Failed to create timeline event: {message}' / 'Failed to update timeline event: {message}' (title). */
export function timelineEventSaveFailedToast(mode: 'create' | 'edit', error: unknown): ToastContent {
  const verb = mode === 'create' ? 'create' : 'update';
  return fail(`Failed to ${verb} timeline event: ${errorText(error)}`);
}

/** Error: 'Failed to delete timeline event: {message}'. */
export function timelineEventDeleteFailedToast(error: unknown): ToastContent {
  return fail('Error', `Failed to delete timeline event: ${errorText(error)}`);
}

/** Error: 'Failed to reorder events: {message}'. */
export function timelineReorderFailedToast(error: unknown): ToastContent {
  return fail('Error', `Failed to reorder events: ${errorText(error)}`);
}

// ---------------------------------------------------------------------------------------------
// Alerts and helper texts of the plan gates (001 §2, §6, §8)

export const ALERTS = {
  /** Collaboration page when the plan is too low; links to "Upgrade Your Plan". */
  collaborationNotAvailable: fail(
    'Feature not available',
    `Community collaboration is only available on the ${PLANS[requiredTierFor('collaboration')].displayName} tier and above.`,
  ),
  collaborationLoadFailed: fail('Error loading collaboration data'),
} as const;

/** Helper text under the AI character image button. */
export const AI_IMAGE_GATE_HELPER_TEXT = 'Available in Wordsmith plan and higher';

// ---------------------------------------------------------------------------------------------
// Billing beyond the spec's catalogue: portal, gifts, premium support, offline buying

export const BILLING_TOASTS = {
  portalFailed: fail('Could not open the billing portal', FALLBACK_MESSAGES.paymentSetup),
  needsConnection: fail('You are offline', 'Buying needs a connection. Your plan and products still work offline.'),
  giftRedeemFailed: fail('Gift code not redeemed', FALLBACK_MESSAGES.unexpected),
  giftCodeCopied: ok('Gift code copied', 'Share it with the author you are giving it to.'),
  supportRequestSent: ok('Request sent', 'Our support team will answer you by e-mail within one working day.'),
  supportRequestFailed: fail('Request not sent', FALLBACK_MESSAGES.unexpected),
  subscriptionConfirmed: ok('Subscription active', 'Your new plan is ready. Enjoy the new features!'),
} as const;

/** After redeeming a gift: the server's sentence. */
export function giftRedeemedToast(message: string): ToastContent {
  return ok('Gift redeemed', message);
}
