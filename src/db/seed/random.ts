import type { Faker } from '@faker-js/faker';

/** The seed's random draws, all from one seeded faker (which also writes the names and texts). */
export class Random {
  constructor(readonly faker: Faker) {}
  /** [0, 1) */
  next(): number {
    return this.faker.number.float();
  }
  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }
  float(min: number, max: number): number {
    return this.faker.number.float({ min, max });
  }
  chance(p: number): boolean {
    return this.faker.datatype.boolean(p);
  }
  pick<T>(items: readonly T[]): T {
    return this.faker.helpers.arrayElement(items);
  }
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    return this.faker.helpers.weightedArrayElement(items.map((value, i) => ({ value, weight: weights[i] })));
  }
  shuffle<T>(items: T[]): T[] {
    return this.faker.helpers.shuffle(items, { inplace: true });
  }
  /** A millisecond timestamp in [from, to). */
  time(from: number, to: number): number {
    return to > from ? this.int(from, to - 1) : from;
  }
}
export type RandomStream = (seed: number) => Random;

/** The seed's streams: a faker seeded with the stream's number, in English. Loaded when called: the gateway imports the seed at every start, seeding is rare. */
export async function fakerStreams(): Promise<RandomStream> {
  const { Faker, base, en } = await import('@faker-js/faker');
  return (n) => new Random(new Faker({ locale: [en, base], seed: n }));
}
