import { BookOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';

/** DocsTab is one tab of a docs page: its ?tab= value and its label. */
export interface DocsTab {
  value: string;
  label: string;
}

/**
 * DocsPage is the frame of /record-api and /table-api: the header, whose links lead to another page and to
 * the OpenAPI reference, and the tab list. `children` are the pages' TabsContent, one per tab.
 */
export function DocsPage({
  title,
  description,
  link,
  tabs,
  tab,
  onTabChange,
  children,
}: {
  title: string;
  description: string;
  link: ReactNode;
  tabs: readonly DocsTab[];
  tab: string;
  onTabChange: (tab: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            {link}
            <LinkButton to="/record-api/reference" icon={BookOpen}>
              OpenAPI reference
            </LinkButton>
          </>
        }
      />
      <Tabs value={tab} onValueChange={onTabChange} className="grid grid-cols-1 gap-4">
        <TabsList className="w-full sm:w-fit">
          {tabs.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {children}
      </Tabs>
    </div>
  );
}
