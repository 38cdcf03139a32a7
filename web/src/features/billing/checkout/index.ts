/** The checkout page on its own entry: Stripe.js and its React bindings stay in this route's chunk. */
export { CheckoutScreen } from './CheckoutScreen';
