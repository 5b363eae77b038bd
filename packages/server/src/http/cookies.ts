import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

/**
 * cookieOptions are the attributes of Basalt's own cookies (the console session and the CSRF cookie): the whole
 * site, out of scripts' reach, not sent on cross-site subrequests, and Secure when the site is served over https.
 * Behind a proxy that ends TLS the request itself reads as http, so SITE_URL decides as well: a browser then never
 * sends the cookie over plain http. Clearing a cookie takes the same attributes.
 */
export function cookieOptions(request: FastifyRequest, siteUrl: string): CookieSerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || siteUrl.startsWith('https:'),
  };
}
