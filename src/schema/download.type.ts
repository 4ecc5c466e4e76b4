import { Field, ObjectType, type MiddlewareFn } from 'type-graphql';
import type { DownloadLink } from '../services/download.service';

@ObjectType({ description: 'A file to fetch with GET on `url` (no token needed) before `expiresAt`, while the session that asked lasts.' })
export class Download implements Omit<DownloadLink, 'user' | 'kind' | 'params'> {
  @Field(() => String, { description: 'Suggested file name, e.g. "profit-statement-2026-01-01_2026-03-31.pdf".' }) fileName: string;
  @Field(() => String, { description: 'MIME type of the file, e.g. "application/pdf", "text/csv; charset=utf-8", "image/png".' }) contentType: string;
  // `url` is a field resolver (DownloadResolver): the link is only encrypted when a client asks for it.
  @Field(() => Date, { description: 'After this instant (5 minutes after the request) the link answers 404.' }) expiresAt: Date;
}

/**
 * The root value REST passes when it runs a file operation in-process: the answered DownloadLink is
 * handed over here and the router streams it directly, with no link to sign and parse back.
 */
export interface FileRoot {
  files: DownloadLink[];
}

/** On the fields that answer a Download: hands the link to REST's FileRoot when there is one. */
export const HandOverFile: MiddlewareFn = async ({ root }, next) => {
  const link = (await next()) as DownloadLink;
  (root as Partial<FileRoot> | undefined)?.files?.push(link);
  return link;
};
