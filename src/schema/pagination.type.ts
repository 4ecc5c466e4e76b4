import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { PageInfoShape } from '../pagination';

@ObjectType({ description: 'Length-aware page: `from`/`to` are 1-based positions, null on an empty page.' })
export class PageInfo implements PageInfoShape {
  @Field(() => Int) currentPage: number;
  @Field(() => Int) perPage: number;
  @Field(() => Int) total: number;
  @Field(() => Int) lastPage: number;
  @Field(() => Int, { nullable: true }) from: number | null;
  @Field(() => Int, { nullable: true }) to: number | null;
  @Field(() => Boolean) hasNextPage: boolean;
  @Field(() => Boolean) hasPreviousPage: boolean;
}

/** `{ items, pageInfo }` for any item type. */
export function Paginated<T extends object>(itemType: ClassType<T>) {
  @ObjectType() // a base only: never reachable itself, so never emitted
  abstract class PageClass {
    @Field(() => [itemType]) items: T[];
    @Field(() => PageInfo) pageInfo: PageInfo;
  }
  return PageClass;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Default 1; anything below 1 means 1.' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: 'Default 15, allowed 1..100.' })
  perPage?: number | null;
}
