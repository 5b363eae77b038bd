/** SITE_NAME is the product's name as the console and mails show it. */
export const SITE_NAME = 'Basalt';

/** ACTIVITY_PAGE_SIZE is the dashboard's activity page size. */
export const ACTIVITY_PAGE_SIZE = 10;

/** ACCESS_TOKEN_TTL_SECONDS is the lifetime of an access token. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** BASALT_VERSION is the version of this build. */
export const BASALT_VERSION = '0.1.0';

/**
 * CONSOLE_CLIENT_HEADER marks the console's own requests: sent with a console session, they are not metered as
 * API usage (features/billing/usage-metering.ts). API keys, app keys and app users are metered whatever they send.
 */
export const CONSOLE_CLIENT_HEADER = 'x-basalt-console';
