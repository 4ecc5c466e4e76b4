import { ValidationError } from '../../src/domain/errors';
import type { Context } from '../../src/http/context';
import type { Prisma } from '../../src/db/database';
import type { ReadReplicas } from '../../src/db/read-replicas';
import { DistributionDeclarationDetailResolver } from '../../src/resolvers/distribution.resolver';
import type { DistributionDeclarationDetail } from '../../src/schema/distribution.type';
import { DistributionService } from '../../src/services/distribution.service';
import { pageWindow } from '../../src/services/pagination';

/** One holder's row as the distributions select reads it. */
const row = {
  id: 31,
  unitId: 4,
  investorId: 9,
  period: '2026-Q1',
  type: 'DIVIDEND',
  cadence: 'QUARTERLY',
  scheduledFor: new Date('2026-04-30T00:00:00Z'),
  ownershipPercentage: '12.500000',
  grossAmount: '125.00',
  netAmount: '118.75',
  fees: '6.25',
  status: 'PENDING',
  distributedAt: null,
  createdAt: new Date('2026-04-01T10:00:00Z'),
  unit: { name: 'Harbour Lofts' },
};

/** A service whose read client answers `row` and keeps every query it was asked. */
function serviceReading() {
  const findMany = jest.fn((_args: unknown) => Promise.resolve([row]));
  const count = jest.fn(() => Promise.resolve(1));
  const client = { distribution: { findMany, count } } as unknown as Prisma;
  const service = new DistributionService(client, { client } as unknown as ReadReplicas);
  return { service, findMany, count };
}

describe("a declaration's holder rows, paged in SQL", () => {
  it('reads only the page window, in holding order (id ascending), and nothing else', async () => {
    const { service, findMany, count } = serviceReading();
    const rows = await service.declarationRows(42, pageWindow(3, 5));
    expect(findMany).toHaveBeenCalledTimes(1);
    expect(findMany.mock.calls[0][0]).toEqual({ where: { declarationId: 42 }, select: expect.any(Object), orderBy: { id: 'asc' }, skip: 10, take: 5 });
    expect(count).not.toHaveBeenCalled();
    expect(rows).toEqual([expect.objectContaining({ id: 31, unitName: 'Harbour Lofts', profitKind: 'DIVIDEND', paidAt: null, paymentDate: row.scheduledFor })]);
    expect(rows[0]).not.toHaveProperty('unit');
  });

  it("answers the field's page and perPage as that window (default 15), and refuses perPage above 100 as every list does", async () => {
    const declarationRows = jest.fn((_id: number, _window: unknown) => Promise.resolve([]));
    const ctx = { services: { distributions: { declarationRows } } } as unknown as Context;
    const detail = { id: 7 } as DistributionDeclarationDetail;
    const resolver = new DistributionDeclarationDetailResolver();
    await resolver.distributions(detail, { page: 2, perPage: 20 }, ctx);
    await resolver.distributions(detail, {}, ctx);
    expect(declarationRows.mock.calls).toEqual([
      [7, expect.objectContaining({ skip: 20, take: 20 })],
      [7, expect.objectContaining({ skip: 0, take: 15 })],
    ]);
    expect(() => resolver.distributions(detail, { perPage: 101 }, ctx)).toThrow(ValidationError);
  });
});
