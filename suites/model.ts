/**
 * Stateful conformance (spec 4.1/R1, 4.2, 5/R2): random sequences of valid creates,
 * invalid creates, unauthorized creates and lists, checked against a model. Every
 * successful create is in every later list with the fields sent; refused creates never
 * appear. The target may be shared with other clients, so lists are checked for
 * containment, never for equality.
 */
import fc from 'fast-check';
import { bodyMutation, type BodyMutation } from '../src/arbitraries/invalid-body.js';
import { invalidCredential } from '../src/arbitraries/invalid-credential.js';
import { newCategory, newCategoryCoverage, type NewCategoryValue } from '../src/arbitraries/new-category.js';
import { testDataName, type CheckContext } from '../src/check/context.js';
import { check } from '../src/check/define.js';
import { runState } from '../src/check/run-state.js';
import { coverageLabels, covers, type CoverageInput } from '../src/arbitraries/coverage.js';
import { expectCreated, expectSameFields, expectStatus } from '../src/check/expect.js';
import { refusedWithoutKey } from '../src/judgements/auth.js';
import { listHoldsModel, type Model } from '../src/judgements/model.js';
import { assertProperty, PROPERTY_TIME_LIMIT_MS } from '../src/check/property.js';
import { isRefusal, mayBeRefused } from '../src/check/refusal.js';
import type { Credential } from '../src/http/credential.js';
import { schemas } from '../src/schema/validators.js';

/** The valid coverage inputs (new-category.ts) the model's coverage sequence creates: what breaks storage, once each. */
const MODEL_TRIGGERS = [
  'name: everyday "Dogs"',
  'name: whitespace at both ends',
  'name: a line break inside',
  'description: CRLF and a tab inside',
  'name: NUL inside',
  'name: other C0 controls inside',
  'name: DEL inside',
  'name: quotes, a backslash and markup',
  'name: characters outside the BMP',
  'description: characters outside the BMP',
  'name: "123", a string that looks like another JSON type',
  'name: 256 characters',
  'name: 1025 characters',
  'the same name twice (first)',
  'the same name twice (second)',
];

/** The invalid bodies of the model's coverage sequence. */
const BODY_MUTATIONS: readonly BodyMutation[] = [
  { label: 'without name', apply: ({ name: _name, ...rest }) => ({ json: rest }) },
  { label: 'name as number 42', apply: (valid) => ({ json: { ...valid, name: 42 } }) },
  { label: 'description as number 42', apply: (valid) => ({ json: { ...valid, description: 42 } }) },
  { label: 'root is an array holding the body', apply: (valid) => ({ json: [valid] }) },
  { label: 'root is null', apply: () => ({ json: null }) },
  { label: 'trailing comma', apply: (valid) => ({ text: JSON.stringify(valid).replace(/}$/, ',}') }) },
  { label: 'empty body', apply: () => ({ text: '' }) },
];

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /** The system under test, and a source of unique tags for refused bodies. */
  interface Real {
    t: CheckContext;
    tag(): string;
  }

  type Command = fc.AsyncCommand<Model, Real>;

  class CreateValid implements Command {
    constructor(readonly fields: NewCategoryValue) {}
    check = () => true;
    async run(model: Model, { t }: Real): Promise<void> {
      const exchange = await t.create({ json: this.fields });
      // A value of a class a policy may refuse, or past a limit: create-valid-bodies judges those.
      if (isRefusal(exchange) && mayBeRefused(this.fields)) return;
      const created = expectCreated(exchange);
      expectSameFields(exchange, created, this.fields);
      model.created.set(created.id, this.fields);
    }
    toString = () => `createValid(${fc.stringify(this.fields)})`;
  }

  class CreateInvalid implements Command {
    constructor(readonly mutation: BodyMutation) {}
    check = () => true;
    async run(model: Model, { t, tag }: Real): Promise<void> {
      // Tagged in both fields, so whichever field survives the mutation identifies it.
      const marker = tag();
      expectStatus(await t.create(this.mutation.apply({ name: marker, description: marker })), 400);
      model.refused.add(marker);
    }
    toString = () => `createInvalid(${this.mutation.label})`;
  }

  class CreateUnauthorized implements Command {
    constructor(readonly credential: Credential) {}
    check = () => true;
    async run(model: Model, { t, tag }: Real): Promise<void> {
      const marker = tag();
      refusedWithoutKey(await t.create({ json: { name: marker, description: marker } }, this.credential));
      model.refused.add(marker);
    }
    toString = () => `createUnauthorized(${fc.stringify(this.credential)})`;
  }

  class List implements Command {
    check = () => true;
    async run(model: Model, { t }: Real): Promise<void> {
      listHoldsModel(await t.list(), model);
    }
    toString = () => 'list()';
  }

  // The coverage phase: creates holding the triggers that break storage, invalid creates and
  // unauthorized ones, each sequence ending with a list. Short sequences rather than one
  // long one: they run concurrently, as generated ones do, so the phase adds no chain of round trips.
  const valid = new Map(newCategoryCoverage((what) => testDataName(runState().settings.runId, 'model-based-sequences', what)).map(({ label, value }) => [label, value]));
  const createValid = (label: string) => {
    const fields = valid.get(label);
    if (!fields) throw new Error(`model-based-sequences: no valid coverage input is labelled ${JSON.stringify(label)}`);
    return new CreateValid(fields);
  };
  const unauthorized = ['missing', 'basic-scheme', 'key-char-added', 'key-case-swapped'].flatMap((name) => runState().invalid.filter((credential) => credential.name === name && !credential.unavailable));
  const half = Math.ceil(MODEL_TRIGGERS.length / 2);
  const withWhat = (trigger: string) => trigger.replace(/^(name|description): /, '$1 with ');
  const coverage: Array<CoverageInput<Command[]>> = [
    covers(`creates of ${MODEL_TRIGGERS.slice(0, half).map(withWhat).join('; ')}, then a list`, MODEL_TRIGGERS.slice(0, half).map(createValid)),
    covers(`creates of ${MODEL_TRIGGERS.slice(half).map(withWhat).join('; ')}, then a list`, MODEL_TRIGGERS.slice(half).map(createValid)),
    covers(`invalid creates ${BODY_MUTATIONS.map((m) => m.label).join('; ')}, then a list`, BODY_MUTATIONS.map((mutation) => new CreateInvalid(mutation))),
    covers(`unauthorized creates ${unauthorized.map((credential) => credential.name).join(', ')}, then a list`, unauthorized.map((credential) => new CreateUnauthorized(credential))),
  ];

  check(
    {
      id: 'model-based-sequences',
      title: 'random sequences of creates and lists agree with a model: created categories stay listed, refused ones never appear',
      clause: '4.1/R1',
      level: 'must', requirements: ['R-4.1-R1', 'R-4.2-R1', 'R-4.2-400', 'R-4.2-R3'], needs: ['create', 'list'],
      writes: true,
      coverage: coverageLabels(coverage),
    },
    async (t) => {
      // Tags derive from the run's index, not from a shared counter: concurrent sequences
      // must send the same bodies whatever order they run in.
      const realFor = (run: string): Real => {
        let tags = 0;
        return { t, tag: () => t.name(`sequence ${run} refused ${++tags}`) };
      };
      const commands = fc.commands(
        [
          newCategory().map((fields) => new CreateValid(fields)),
          bodyMutation(schemas.NewCategory).map((mutation) => new CreateInvalid(mutation)),
          invalidCredential(t.run.settings.apiKey).map((credential) => new CreateUnauthorized(credential)),
          fc.constant(new List()),
        ],
        { maxCommands: 8 },
      );

      await assertProperty(
        t,
        commands,
        async (sequence, run) => {
          const real = realFor(run);
          const model: Model = { created: new Map(), refused: new Set() };
          await fc.asyncModelRun(() => ({ model, real }), sequence);
          await new List().run(model, real); // every sequence ends with the model checked
        },
        { numRuns: 10, coverage },
      );
    },
    { sequential: true, timeLimitMs: PROPERTY_TIME_LIMIT_MS },
  );
}
