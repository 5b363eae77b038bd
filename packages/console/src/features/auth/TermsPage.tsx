import { SITE_NAME } from '@basalt/shared';
import { FileText } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { useConsoleConfig } from '@/lib/config';

/**
 * TermsPage is /terms: where the instance's terms are published (Settings → Instance), or that there are none.
 */
export function TermsPage() {
  const { termsUrl } = useConsoleConfig();
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-lg">
        <CardContent className="grid gap-3 pt-6 sm:pt-6">
          <div className="flex items-center gap-2">
            <FileText aria-hidden className="size-6 text-primary" />
            <h1 className="text-2xl font-bold">Terms and conditions</h1>
          </div>
          {termsUrl ? (
            <p className="text-sm text-muted-foreground">
              The terms of this {SITE_NAME} instance are published at{' '}
              <a href={termsUrl} className="break-all font-medium text-primary underline-offset-4 hover:underline">
                {termsUrl}
              </a>
              .
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">
              The terms of this {SITE_NAME} instance have not been published yet. Ask the person who runs it for them
              before you rely on it.
            </p>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
