import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { jsonQuery } from '@/lib/api';
import { achievementKeys } from './achievements.keys';

// GET /api/achievements: the account's onboarding milestones, each reached by the action it names.

export const achievementSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  points: z.number(),
  category: z.string(),
  order: z.number(),
  target: z.number(),
  progress: z.number(),
  status: z.enum(['LOCKED', 'IN_PROGRESS', 'COMPLETED']),
  completedAt: z.string().nullable(),
});
export type Achievement = z.infer<typeof achievementSchema>;

/** useAchievementsQuery reads the milestones again whenever the Profile page is shown. */
export function useAchievementsQuery() {
  return useQuery({
    queryKey: achievementKeys.list,
    queryFn: jsonQuery(z.array(achievementSchema)),
    refetchOnMount: 'always',
  });
}
