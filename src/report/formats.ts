/**
 * The report formats, by the name `--format` takes, with the file each writes. Kept apart
 * from their renderers (report/write.ts), which the CLI loads only when a run ends.
 */
export const FORMAT_FILES = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  md: 'summary.md',
  har: 'exchanges.har',
} as const;

/** A report format's name. */
export type Format = keyof typeof FORMAT_FILES;

/** Every format, in the order they are listed and written. */
export const ALL_FORMATS = Object.keys(FORMAT_FILES) as Format[];
