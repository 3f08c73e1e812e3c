import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/**
 * XML checks with libxml2's xmllint compiled to WebAssembly (xmllint-wasm, which npm
 * installs): the report tests run on a machine with Node alone, as the README's commands
 * promise, and judge as the Debian xmllint does.
 */

const JUNIT_XSD = fileURLToPath(new URL('../fixtures/junit/junit-10.xsd', import.meta.url));

/** The documents' well-formedness errors (empty when every one is well-formed), each named by its file. */
export async function xmlErrors(files: ReadonlyArray<{ fileName: string; contents: string }>): Promise<string[]> {
  // Parsing to re-format is xmllint's well-formedness check when no schema is given.
  const result = await validateXML({ xml: files.map(({ fileName, contents }) => ({ fileName: safeName(fileName), contents })), normalization: 'format' });
  return result.errors.map((error) => error.rawMessage);
}

/** The document's errors against the Jenkins JUnit XSD (test/fixtures/junit/junit-10.xsd): empty when it validates. */
export async function junitSchemaErrors(contents: string): Promise<string[]> {
  const schema = await readFile(JUNIT_XSD, 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents }], schema: [{ fileName: 'junit-10.xsd', contents: schema }] });
  return result.errors.map((error) => error.rawMessage);
}

/** xmllint-wasm refuses file names it could read as options: a plain base name. */
function safeName(name: string): string {
  return name.replace(/^.*[\\/]/, '').replace(/^-+/, '') || 'document.xml';
}
