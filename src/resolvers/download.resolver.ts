import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../http/context';
import { Download } from '../schema/download.type';
import type { DownloadLink } from '../services/download.service';

@Resolver(() => Download)
export class DownloadResolver {
  @FieldResolver(() => String, { description: 'Path of a short-lived link on this server (`/api/v1/downloads/{token}`); it dies with the session.' })
  url(@Root() link: DownloadLink, @Ctx() ctx: Context): Promise<string> {
    return ctx.services.downloads.url(link);
  }
}
