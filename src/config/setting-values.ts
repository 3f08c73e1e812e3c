import { UsageError } from '../core/errors.js';
import { compileCheckPattern } from './check-pattern.js';
import { SETTING_LIST, SETTINGS, type NumberSetting, type Setting, type SettingName, type SettingValues } from './settings.js';

/** What a setting accepts, in words: `an integer from 1 to 256 (requests)`. */
export function expectation(setting: Setting): string {
  switch (setting.type) {
    case 'integer':
    case 'number':
      return `${setting.type === 'integer' ? 'an integer' : 'a number'} from ${setting.min} to ${setting.max} (${setting.unit})${setting.words ? `, or ${setting.words.join(' or ')}` : ''}`;
    case 'choice':
      return `one of ${setting.choices.join(', ')}`;
    case 'list':
      return `some of ${setting.choices.join(', ')}, comma-separated`;
    case 'texts':
      return `a list of texts, each matching ${setting.pattern}`;
    case 'regex':
      return 'a regular expression in RE2 syntax (matched in linear time: no lookaround or backreferences)';
    case 'url':
      return 'an absolute URL';
    case 'boolean':
      return 'true or false';
    default:
      return setting.pattern ? `text matching ${setting.pattern}` : 'text';
  }
}

/** Whether a number is within a numeric setting's type and bounds. */
function inBounds(setting: NumberSetting, value: number): boolean {
  return Number.isFinite(value) && (setting.type === 'number' || Number.isSafeInteger(value)) && value >= setting.min && value <= setting.max;
}

/** Whether `value` is one a setting accepts (its type, bounds, choices or pattern). */
export function accepts(setting: Setting, value: unknown): boolean {
  switch (setting.type) {
    case 'integer':
    case 'number':
      return (typeof value === 'number' && inBounds(setting, value)) || (setting.words?.includes(value as string) ?? false);
    case 'choice':
      return typeof value === 'string' && setting.choices.includes(value);
    case 'list':
      return Array.isArray(value) && value.length > 0 && value.every((item) => setting.choices.includes(item as string));
    case 'texts':
      return Array.isArray(value) && value.every((item) => matches(setting.pattern, item));
    case 'boolean':
      return typeof value === 'boolean';
    case 'regex':
      return typeof value === 'string' && typeof compileCheckPattern(value) !== 'string';
    default:
      return setting.pattern ? matches(setting.pattern, value) : typeof value === 'string' && value !== '';
  }
}

function matches(pattern: string, value: unknown): boolean {
  return typeof value === 'string' && new RegExp(pattern).test(value);
}

/**
 * A setting's value from its command-line argument; for a repeated setting, one item (the
 * command line collects them).
 * @throws Error with the message `expected <what the setting accepts>.` (the command line
 *   prints it after the flag).
 */
export function parseArgument(setting: Setting, text: string): unknown {
  if (setting.type === 'texts') {
    if (!matches(setting.pattern, text)) throw new Error(`expected text matching ${setting.pattern}.`);
    return text;
  }
  let value: unknown = text;
  if ((setting.type === 'integer' || setting.type === 'number') && !setting.words?.includes(text)) value = text.trim() === '' ? NaN : Number(text);
  if (setting.type === 'list') value = text.split(',').map((item) => item.trim());
  if (!accepts(setting, value)) throw new Error(`expected ${expectation(setting)}.`);
  return value;
}

/**
 * Checks values given by code or by a configuration file against the table.
 * @param where names the source in the message, e.g. `--rate-limit` or `runConformance`.
 * @throws UsageError for an unknown setting or a value the setting does not accept.
 */
export function checkValues(values: SettingValues, where: string): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const setting = (SETTINGS as Record<string, Setting>)[name];
    if (!setting) throw new UsageError(`${where}: unknown setting ${name}`);
    if (!accepts(setting, value)) throw new UsageError(`${where}: ${name} must be ${expectation(setting)}, not ${JSON.stringify(value)}`);
  }
}

/** The JSON Schema of one setting's value. */
function valueSchema(setting: Setting): Record<string, unknown> {
  const description = { description: setting.help };
  switch (setting.type) {
    case 'integer':
    case 'number': {
      const number = { type: setting.type, minimum: setting.min, maximum: setting.max };
      return { ...(setting.words ? { oneOf: [number, { enum: setting.words }] } : number), description: `${setting.help} (${setting.unit})` };
    }
    case 'choice':
      return { enum: setting.choices, ...description };
    case 'list':
      return { type: 'array', items: { enum: setting.choices }, minItems: 1, ...description };
    case 'texts':
      return { type: 'array', items: { type: 'string', pattern: setting.pattern }, ...description };
    case 'boolean':
      return { type: 'boolean', ...description };
    default:
      return { type: 'string', minLength: 1, ...(setting.pattern ? { pattern: setting.pattern } : {}), ...description };
  }
}

/**
 * The configuration file's JSON Schema (`schemas/config.schema.json`), generated from the
 * table: a target may give every setting declared `config`, within its bounds.
 */
export function configSchema(): Record<string, unknown> {
  const configurable = SETTING_LIST.filter(([, setting]) => setting.config);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://petstore-conformance.dev/schemas/v1/config.schema.json',
    title: 'Config',
    description:
      'petstore-conformance.yaml: named targets, selected with --target; command-line flags override their settings. Generated from src/config/settings.ts (npm run schemas).',
    type: 'object',
    required: ['targets'],
    additionalProperties: false,
    properties: {
      targets: {
        type: 'object',
        minProperties: 1,
        propertyNames: { pattern: '^[A-Za-z0-9_.-]+$' },
        additionalProperties: {
          type: 'object',
          required: ['baseUrl'],
          additionalProperties: false,
          properties: Object.fromEntries(configurable.map(([name, setting]) => [name, valueSchema(setting)])),
        },
      },
    },
  };
}

/** The names of the settings a configured target may give. */
export const CONFIGURABLE: readonly SettingName[] = SETTING_LIST.filter(([, setting]) => setting.config).map(([name]) => name);
