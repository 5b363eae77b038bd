import { SITE_NAME } from '@basalt/shared';
import { FileText } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';

/**
 * TermsPage is /terms, where the register form's "terms and conditions" link leads (in a new tab, so the form
 * keeps what was typed). No terms are published yet, so it says so.
 */
export function TermsPage() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-lg">
        <CardContent className="grid gap-3 pt-6 sm:pt-6">
          <div className="flex items-center gap-2">
            <FileText aria-hidden className="size-6 text-primary" />
            <h1 className="text-2xl font-bold">Terms and conditions</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            The terms of this {SITE_NAME} instance have not been published yet. Ask the person who runs it for them
            before you rely on it.
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
