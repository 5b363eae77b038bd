import { Fragment } from 'react';

/** PathText is a URL path that wraps after its slashes on a narrow screen, rather than inside a name. */
export function PathText({ path }: { path: string }) {
  const segments = path.split('/');
  return (
    <>
      {segments.map((segment, index) => (
        // The path up to a segment identifies it, also when a segment repeats (/a/{id}/b/{id}).
        <Fragment key={segments.slice(0, index + 1).join('/')}>
          {index > 0 && (
            <>
              /<wbr />
            </>
          )}
          {segment}
        </Fragment>
      ))}
    </>
  );
}
