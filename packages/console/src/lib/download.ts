/** downloadTextFile offers text to the browser as a file download (nothing leaves the page). */
export function downloadTextFile(text: string, fileName: string, type = 'application/json'): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** downloadJson offers `value` to the browser as a pretty-printed JSON file download. */
export function downloadJson(value: unknown, fileName: string): void {
  downloadTextFile(`${JSON.stringify(value, null, 2)}\n`, fileName);
}

/** downloadBlob offers a file the page already holds (a server's CSV) to the browser as a download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL can go once the event loop moves on.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
