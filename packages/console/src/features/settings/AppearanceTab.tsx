import { type LucideIcon, Monitor, Moon, Sun } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { isTheme, type Theme } from '@/lib/theme';
import { useTheme } from '@/lib/theme-provider';

const THEMES: ReadonlyArray<{ value: Theme; label: string; hint: string; icon: LucideIcon }> = [
  { value: 'light', label: 'Light', hint: 'Always light.', icon: Sun },
  { value: 'dark', label: 'Dark', hint: 'Always dark.', icon: Moon },
  { value: 'system', label: 'System', hint: 'Follows your operating system.', icon: Monitor },
];

/** AppearanceTab is Settings › Appearance: Light, Dark or System, the same preference as the top bar's toggle. */
export function AppearanceTab() {
  const { theme, setTheme } = useTheme();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Choose how the console looks in this browser.</CardDescription>
      </CardHeader>
      <CardContent>
        <RadioGroup
          value={theme}
          onValueChange={(value) => isTheme(value) && setTheme(value)}
          aria-label="Theme"
          className="sm:grid-cols-3"
        >
          {THEMES.map(({ value, label, hint, icon: Icon }) => (
            <Label
              key={value}
              htmlFor={`theme-${value}`}
              className="flex cursor-pointer items-start gap-3 rounded-lg border p-4 font-normal transition-colors hover:bg-accent/50 has-[[data-state=checked]]:border-primary/60 has-[[data-state=checked]]:bg-primary/5"
            >
              <RadioGroupItem
                value={value}
                id={`theme-${value}`}
                aria-labelledby={`theme-${value}-label`}
                aria-describedby={`theme-${value}-hint`}
                className="mt-0.5"
              />
              <span className="grid gap-1">
                <span className="flex items-center gap-2 font-medium">
                  <Icon aria-hidden className="size-4 text-muted-foreground" />
                  <span id={`theme-${value}-label`}>{label}</span>
                </span>
                <span id={`theme-${value}-hint`} className="text-xs text-muted-foreground">
                  {hint}
                </span>
              </span>
            </Label>
          ))}
        </RadioGroup>
      </CardContent>
    </Card>
  );
}
