// The dashboard queries' keys; they start with the API path, so the default query function could fetch them.
// Imports nothing.

/** dashboardKeys are the dashboard's query keys; `activityAll` matches every activity page. */
export const dashboardKeys = {
  stats: ['/api/stats'] as const,
  activityAll: ['/api/activity'] as const,
  activity: (page: number, limit: number) => ['/api/activity', { page, limit }] as const,
};
