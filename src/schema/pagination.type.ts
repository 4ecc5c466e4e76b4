import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { Page, PageInfoShape } from '../services/pagination';

// simpleResolvers: plain properties, read without type-graphql's per-field wrapper (see Distribution).
@ObjectType({ simpleResolvers: true, description: 'Length-aware page: `from`/`to` are 1-based positions, null on an empty page.' })
export class PageInfo implements PageInfoShape {
  @Field(() => Int, { description: 'The page answered (1-based; a page past the end is answered empty, not clamped).' }) currentPage: number;
  @Field(() => Int, { description: 'Items per page, 1..100.' }) perPage: number;
  @Field(() => Int, { description: 'Items in the whole list.' }) total: number;
  @Field(() => Int, { description: 'max(ceil(total / perPage), 1).' }) lastPage: number;
  @Field(() => Int, { nullable: true, description: '1-based position of the first item on this page; null when it is empty.' }) from: number | null;
  @Field(() => Int, { nullable: true, description: '1-based position of the last item on this page; null when it is empty.' }) to: number | null;
  @Field(() => Boolean, { description: 'currentPage < lastPage.' }) hasNextPage: boolean;
  @Field(() => Boolean, { description: 'currentPage > 1.' }) hasPreviousPage: boolean;
}

/** `{ items, pageInfo }` for any item type. */
export function Paginated<T extends object>(itemType: ClassType<T>) {
  // A base only: never reachable itself, so never emitted. simpleResolvers as for PageInfo.
  @ObjectType({ simpleResolvers: true })
  abstract class PageClass implements Page<T> {
    @Field(() => [itemType], { description: "The page's items, in the list's order." }) items: T[];
    @Field(() => PageInfo, { description: 'Where this page lies in the whole list.' }) pageInfo: PageInfo;
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
