import type { Role } from '../generated/prisma/enums';

/** The authenticated caller as the domain sees it, whichever face (GraphQL, REST) the request came through. */
export interface AuthUser {
  id: number;
  role: Role;
  /** Set for investors: the owner key of every investor-scoped row. */
  investorId: number | null;
  sessionId: string;
}
