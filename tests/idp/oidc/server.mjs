// OpenID Connect identity provider for the single sign-on tests, on loopback over HTTPS.
//
//   node server.mjs CONFIG.json
//
// CONFIG: {port, issuer, cert, key, users (path of users.json), clients: [{client_id,
// client_secret, redirect_uris}]}. users.json (read at every login, so tests may add users):
// {"name": {"password", "otp" (optional one-time code), "email", "given_name", "family_name",
// "consent": false to refuse access at the consent step}}.
//
// The login, one-time-code and consent pages are ours: the provider's development pages
// accept any password.
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const users = () => JSON.parse(readFileSync(config.users, 'utf8'));
const pendingOtp = new Map(); // interaction uid -> account id awaiting its one-time code

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, body, error) {
  const alert = error ? `<div class="alert alert-error" role="alert">${escape(error)}</div>` : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>`
    + `<body><h1>${escape(title)}</h1>${alert}${body}</body></html>`;
}

const loginPage = (uid, error, login = '') => page('Sign in', `
<form method="post" action="/interaction/${uid}/login" autocomplete="off">
<input type="hidden" name="uid" value="${uid}">
<label for="login">Username</label> <input id="login" type="text" name="login" value="${escape(login)}" autofocus>
<label for="password">Password</label> <input id="password" type="password" name="password">
<button type="submit">Sign in</button>
</form>`, error);

const otpPage = (uid, error) => page('Two-step verification', `
<form method="post" action="/interaction/${uid}/otp">
<label for="otp">Enter the code from your authenticator app</label>
<input id="otp" type="text" name="otp" inputmode="numeric" autocomplete="one-time-code">
<button type="submit">Verify</button>
</form>`, error);

const consentPage = (uid, client, scopes) => page('Authorize', `
<p>${escape(client)} asks for access to: ${escape(scopes.join(' '))}</p>
<form method="post" action="/interaction/${uid}/consent">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`);

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };

const provider = new Provider(config.issuer, {
  clients: config.clients.map((c) => ({
    client_id: c.client_id,
    client_secret: c.client_secret,
    redirect_uris: c.redirect_uris,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_basic',
  })),
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name', 'preferred_username'],
  },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(ctx, id) {
    const user = users()[id];
    if (!user) return undefined;
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email: user.email,
          email_verified: true,
          preferred_username: id,
          given_name: user.given_name || '',
          family_name: user.family_name || '',
          name: `${user.given_name || ''} ${user.family_name || ''}`.trim() || id,
        };
      },
    };
  },
  ttl: { Session: 3600, Interaction: 600, Grant: 3600 },
});
provider.proxy = false;

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

function send(res, status, html) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

async function consentOrFinish(req, res, details, accountId) {
  // The login is done; the provider then asks for consent through a new interaction.
  await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
}

async function grantConsent(req, res, details) {
  const { params, session, prompt } = details;
  const user = users()[session.accountId] || {};
  if (user.consent === false) {
    return provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: `Access to ${params.client_id} is not allowed for account ${session.accountId}`,
    }, { mergeWithLastSubmission: false });
  }
  const grant = details.grantId ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes || {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function interaction(req, res, uid, step) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return send(res, 400, page('Error', '<p>Interaction mismatch.</p>'));
  const prompt = details.prompt.name;
  if (req.method === 'GET') {
    if (prompt === 'consent') {
      const scopes = [...(details.prompt.details.missingOIDCScope || [])];
      return send(res, 200, consentPage(uid, details.params.client_id, scopes));
    }
    return send(res, 200, pendingOtp.has(uid) ? otpPage(uid) : loginPage(uid));
  }
  const form = await readForm(req);
  if (step === 'login' && prompt === 'login') {
    const user = users()[form.login];
    if (!form.login || !user) return send(res, 401, loginPage(uid, `Unknown user: ${form.login || '(empty)'}.`, form.login));
    if (form.password !== user.password) return send(res, 401, loginPage(uid, 'Invalid password.', form.login));
    if (user.otp) {
      pendingOtp.set(uid, form.login);
      return send(res, 200, otpPage(uid));
    }
    return consentOrFinish(req, res, details, form.login);
  }
  if (step === 'otp' && prompt === 'login' && pendingOtp.has(uid)) {
    const accountId = pendingOtp.get(uid);
    if (!form.otp) return send(res, 401, otpPage(uid, 'Enter your one-time code.'));
    if (form.otp !== String(users()[accountId].otp)) return send(res, 401, otpPage(uid, 'Invalid one-time code.'));
    pendingOtp.delete(uid);
    return consentOrFinish(req, res, details, accountId);
  }
  if (step === 'consent' && prompt === 'consent') {
    if (form.decision !== 'allow') {
      return provider.interactionFinished(req, res, {
        error: 'access_denied', error_description: 'The user denied access.',
      }, { mergeWithLastSubmission: false });
    }
    return grantConsent(req, res, details);
  }
  return send(res, 400, page('Error', `<p>Unexpected step ${escape(step)} at prompt ${escape(prompt)}.</p>`));
}

const callback = provider.callback();
const route = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|otp|consent))?\/?$/;

const server = createServer({ cert: readFileSync(config.cert), key: readFileSync(config.key) }, (req, res) => {
  const match = route.exec(req.url.split('?')[0]);
  if (!match) return callback(req, res);
  return interaction(req, res, match[1], match[2] || '').catch((err) => {
    send(res, 400, page('Error', `<p class="error">${escape(err.error_description || err.message)}</p>`));
  });
});
server.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`oidc idp listening on ${config.issuer}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
