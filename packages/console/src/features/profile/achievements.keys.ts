// The query key of achievements (key files import nothing). The first element is the API path.

/** achievementKeys name the achievements query. */
export const achievementKeys = { list: ['/api/achievements'] as const };
