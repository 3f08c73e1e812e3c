/** The XML checks the report tests rely on (test/support/xml.ts) tell valid from invalid. */
import { expect, test } from 'vitest';
import { junitSchemaErrors, xmlErrors } from '../support/xml.js';

test('well-formedness: a mismatched tag and a control character are errors, a plain document is not', async () => {
  expect(await xmlErrors([{ fileName: 'ok.xml', contents: '<a>ok &amp; fine</a>' }])).toEqual([]);
  expect((await xmlErrors([{ fileName: 'bad.xml', contents: '<a><b></a>' }]))[0]).toMatch(/bad\.xml:1: parser error : Opening and ending tag mismatch/);
  expect((await xmlErrors([{ fileName: 'nul.xml', contents: '<a>\u0001</a>' }]))[0]).toMatch(/invalid Char value 1/);
});

test('the JUnit XSD: an unknown element is an error, a minimal report is not', async () => {
  expect(await junitSchemaErrors('<testsuites><testsuite name="s" tests="1"><testcase name="c" classname="k" time="0.001"/></testsuite></testsuites>')).toEqual([]);
  expect((await junitSchemaErrors('<testsuites><bogus/></testsuites>')).join('\n')).toMatch(/bogus/);
});
