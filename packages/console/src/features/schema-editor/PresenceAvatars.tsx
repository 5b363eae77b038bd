import type { PresenceUser } from '@basalt/shared';

// Who is in the room: initials in each person's colour, and the count.

const SHOWN = 5;

/** PresenceAvatars shows the people in the room. */
export function PresenceAvatars({ users }: { users: PresenceUser[] }) {
  if (users.length === 0) return null;
  return (
    <div className="flex items-center gap-2">
      <div className="flex -space-x-2" aria-hidden="true">
        {users.slice(0, SHOWN).map((user) => (
          <span
            key={user.accountId}
            title={`${user.name} (${user.role})`}
            className="flex size-7 items-center justify-center rounded-full border-2 border-background text-[11px] font-semibold text-white"
            style={{ backgroundColor: user.color }}
          >
            {user.initials}
          </span>
        ))}
      </div>
      <span className="text-sm text-muted-foreground" data-testid="active-users">
        {users.length} active
        <span className="sr-only">
          {users.length === 1 ? ' user' : ' users'}: {users.map((user) => user.name).join(', ')}
        </span>
      </span>
    </div>
  );
}
