/**
 * A test double of Stripe.js for the browser tests: js.stripe.com cannot be reached here, so
 * Playwright's routing serves this small script in its place, and forwards the calls it makes to
 * https://api.stripe.com to the suite's fake Stripe (sync-server/test/support/fake-stripe.ts). It
 * implements what the checkout page uses: `Stripe(key)`, `elements({clientSecret})`, a Payment
 * Element (one card-number field) and `confirmPayment`, which confirms the PaymentIntent at the
 * fake Stripe (which then delivers the signed webhook) and answers Stripe's error for a declined
 * card.
 */
import type { Page } from '@playwright/test';

const SCRIPT = String.raw`
(function () {
  function Stripe(key) {
    var api = {
      version: 'endive',
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      // react-stripe-js recognises a Stripe object by these methods (unused by the checkout page).
      createToken: function () { return Promise.reject(new Error('not in the double')); },
      createPaymentMethod: function () { return Promise.reject(new Error('not in the double')); },
      confirmCardPayment: function () { return Promise.reject(new Error('not in the double')); },
      elements: function (options) {
        var clientSecret = options && options.clientSecret;
        var card = null;
        var elements = {
          update: function () {},
          fetchUpdates: function () { return Promise.resolve({}); },
          submit: function () { return Promise.resolve({}); },
          getElement: function () { return card; },
          create: function (type) {
            var handlers = {};
            var node = null;
            card = {
              mount: function (target) {
                node = typeof target === 'string' ? document.querySelector(target) : target;
                var label = document.createElement('label');
                label.textContent = 'Card number';
                var input = document.createElement('input');
                input.setAttribute('data-stripe-double', 'card');
                input.setAttribute('inputmode', 'numeric');
                label.appendChild(input);
                node.appendChild(label);
                setTimeout(function () { (handlers.ready || []).forEach(function (h) { h({ elementType: type }); }); }, 0);
              },
              on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return card; },
              off: function (event, handler) { handlers[event] = (handlers[event] || []).filter(function (h) { return h !== handler; }); return card; },
              update: function () {},
              unmount: function () { if (node) node.innerHTML = ''; },
              destroy: function () { if (node) node.innerHTML = ''; },
              _value: function () { var i = node && node.querySelector('input'); return i ? i.value : ''; },
            };
            return card;
          },
        };
        elements._clientSecret = clientSecret;
        return elements;
      },
      confirmPayment: function (params) {
        var elements = params.elements;
        var secret = elements._clientSecret;
        var id = secret.split('_secret_')[0];
        var body = 'client_secret=' + encodeURIComponent(secret) + '&card=' + encodeURIComponent(elements.getElement()._value());
        return fetch('https://api.stripe.com/v1/payment_intents/' + id + '/confirm', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: body,
        }).then(function (res) {
          return res.json().then(function (json) {
            if (!res.ok) return { error: json.error };
            if (params.redirect === 'if_required') return { paymentIntent: json };
            window.location.assign(params.confirmParams.return_url + '&redirect_status=succeeded');
            return new Promise(function () {});
          });
        });
      },
    };
    return api;
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;

/** Serves the Stripe.js double and forwards its API calls to the fake Stripe (say so in each test). */
export async function useStripeJsDouble(page: Page): Promise<void> {
  const fake = process.env.E2E_FAKE_STRIPE_URL;
  if (!fake) throw new Error('E2E_FAKE_STRIPE_URL is not set (playwright.config.ts starts the fake Stripe)');
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: SCRIPT }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${fake}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
}
