/** A category as the reference server holds it (spec section 2); ids are exact int64. */
export interface StoredCategory {
  id: bigint;
  name: string;
  description?: string;
}

/** The fields a client may supply (spec section 2, NewCategory). */
export interface NewCategory {
  name: string;
  description?: string;
}

/**
 * In-memory category store: ids assigned by the service (spec section 2), increasing
 * from `firstId`, never reused. Counts creates, so tests can prove a run wrote nothing.
 */
export class CategoryStore {
  readonly #items: StoredCategory[] = [];
  #nextId: bigint;

  constructor(firstId = 1n) {
    this.#nextId = firstId;
  }

  /** Stores a new category and returns it with its assigned id. */
  create(fields: NewCategory): StoredCategory {
    const category: StoredCategory = { id: this.#nextId++, name: fields.name };
    if (fields.description !== undefined) category.description = fields.description;
    this.#items.push(category);
    return category;
  }

  /** Every category, oldest first (spec 4.1/R1: all of them; R2: no paging). */
  list(): StoredCategory[] {
    return [...this.#items];
  }

  /** Categories created since the store was made. */
  get size(): number {
    return this.#items.length;
  }
}
