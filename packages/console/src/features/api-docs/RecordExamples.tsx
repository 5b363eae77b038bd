import type { TableResponse } from '@basalt/shared';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { CodeSample } from './CodeSample';
import { API_KEY_PLACEHOLDER, EXAMPLE_LANGUAGES } from './record-api-examples';

/** RecordExamples is the Record API page's Examples tab: a complete program for one table in each language. */
export function RecordExamples({ table, origin }: { table: TableResponse; origin: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create, read, list, update and delete</CardTitle>
        <CardDescription>
          Each program creates a record in {table.name} with sample values, reads it back, lists the newest records,
          changes the record and deletes it again. Replace{' '}
          <code className="font-mono text-[13px]">{API_KEY_PLACEHOLDER}</code> with a key from the{' '}
          <Link to="/api" className="text-primary underline-offset-4 hover:underline">
            API page
          </Link>{' '}
          and run it as it is.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="javascript" className="grid grid-cols-1 gap-3">
          <TabsList className="w-full sm:w-fit" aria-label="Language">
            {EXAMPLE_LANGUAGES.map((language) => (
              <TabsTrigger key={language.id} value={language.id}>
                {language.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {EXAMPLE_LANGUAGES.map((language) => (
            <TabsContent key={language.id} value={language.id}>
              <CodeSample
                label={`${language.label} example`}
                title={`${language.label} · ${language.fileName}`}
                code={language.generate({ name: table.name, schema: table.schema, origin })}
              />
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}
