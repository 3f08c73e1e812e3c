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
import { newCategory, type NewCategoryValue } from '../src/arbitraries/new-category.js';
import type { CheckContext } from '../src/check/context.js';
import { check } from '../src/check/define.js';
import { expectCreated, expectSameFields, expectStatus } from '../src/check/expect.js';
import { listHoldsModel, type Model } from '../src/judgements/model.js';
import { assertProperty, PROPERTY_TIME_LIMIT_MS } from '../src/check/property.js';
import { allowedRefusal, isRefusal } from '../src/check/refusal.js';
import type { Credential } from '../src/http/credential.js';
import { schemas } from '../src/schema/validators.js';

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
      // A control character or a length past a limit may be refused: create-valid-bodies judges those.
      if (isRefusal(exchange) && allowedRefusal(this.fields)) return;
      const created = expectCreated(exchange);
      expectSameFields(exchange, created, this.fields, 'the created category');
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
      expectStatus(await t.create({ json: { name: marker, description: marker } }, this.credential), 401);
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

  check(
    {
      id: 'model-based-sequences',
      title: 'random sequences of creates and lists agree with a model: created categories stay listed, refused ones never appear',
      clause: '4.1/R1',
      level: 'must', requirements: ['R-4.1-R1', 'R-4.2-R1', 'R-4.2-400', 'R-4.2-R3'], needs: ['create', 'list'],
      writes: true,
    },
    async (t) => {
      // Tags derive from the run's index, not from a shared counter: concurrent sequences
      // must send the same bodies whatever order they run in.
      const realFor = (run: number): Real => {
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
        { numRuns: 10 },
      );
    },
    { sequential: true, timeLimitMs: PROPERTY_TIME_LIMIT_MS },
  );
}
