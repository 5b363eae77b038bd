import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { useTheme } from '@/lib/theme-provider';

/** ThemeToggle switches between light and dark (Settings › Appearance also offers System). */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const next = resolvedTheme === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip content={`Switch to ${next} mode`} side="bottom">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Toggle theme"
        data-theme-next={next}
        onClick={() => setTheme(next)}
      >
        {resolvedTheme === 'dark' ? <Sun /> : <Moon />}
      </Button>
    </Tooltip>
  );
}
