import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { finishSsoSignIn, type SsoDeps } from '../../src/services/sso';
import { SAML_ACS_PATH, SAML_METADATA_PATH, SAML_POST_LIMITS, samlServiceProviderMetadata } from '../../src/services/sso/saml';
import { connectionOfWorkspace } from '../../src/services/sso/connections';
import { isUuid } from '../../src/domain/ids';
import { knexOf } from '../../src/db/knex';
import { setSessionCookie } from '../dashboard/cookies';
import { HttpError } from '../http/customer-errors';
import { clearSsoBrowserCookie, ssoBrowserCookieOf } from './cookies';

/** The IdP's form: SAMLResponse (capped in the SAML core) and RelayState; a little room for the field names. */
const FORM_LIMIT_BYTES = SAML_POST_LIMITS.samlResponseChars + 4 * 1024;

/**
 * SAML's two routes (docs/sso-saml.md), before the JSON body parser and outside the same-origin
 * guard: the IdP's browser POST comes from the IdP's origin by design.
 * `POST /auth/sso/saml/acs`: the IdP's answer, checked by the SAML core behind the sign-in seam;
 * signs in (the session cookie, as a password login sets it) and 303 to `/`.
 * `GET /auth/sso/saml/metadata/{org}`: the service provider's metadata for the IdP's administrator.
 */
export function createSamlRouter(deps: SsoDeps): Router {
  const router = new Router();
  const form = koaBody({ json: false, urlencoded: true, multipart: false, text: false, formLimit: FORM_LIMIT_BYTES });
  router.post(SAML_ACS_PATH, form, async (ctx) => {
    ctx.state.routePattern = SAML_ACS_PATH;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const fields = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const browserValue = ssoBrowserCookieOf(ctx as never);
    clearSsoBrowserCookie(ctx as never);
    const finished = await finishSsoSignIn(deps, {
      state: fields.RelayState ?? '',
      response: { url: new URL(`${deps.appUrl}${ctx.path}`), form: fields },
      browserValue,
      client: { ip: ctx.ip, userAgent: ctx.get('User-Agent') },
    });
    if (finished.kind === 'login') setSessionCookie(ctx as never, finished.session.cookieValue);
    // 303: the browser follows a POST's answer with a GET.
    ctx.status = 303;
    ctx.redirect('/');
  });
  router.get(`${SAML_METADATA_PATH}/:org`, async (ctx) => {
    ctx.state.routePattern = `${SAML_METADATA_PATH}/:org`;
    const organizationId = ctx.params.org;
    const connection = isUuid(organizationId) ? await connectionOfWorkspace(knexOf(deps.orm), deps.sealer, organizationId) : undefined;
    if (!connection || connection.protocol !== 'saml') throw new HttpError(404, 'this workspace has no SAML single sign-on set up', 'not_found');
    ctx.type = 'application/samlmetadata+xml';
    ctx.body = samlServiceProviderMetadata({ appUrl: deps.appUrl, organizationId });
  });
  return router;
}
