import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../src/db/database';
import type { Prisma as PrismaNs } from '../../src/generated/prisma/client';

/**
 * A unit written straight to the database (no notifications, no audit): AVAILABLE, half of it still
 * open to investment, in the first category unless `data` names one. `data` overrides any column.
 */
export async function createTestUnit(prisma: Prisma, data: Partial<PrismaNs.UnitUncheckedCreateInput> = {}) {
  const categoryId = data.categoryId ?? (await prisma.category.findFirstOrThrow()).id;
  return prisma.unit.create({
    data: {
      code: `TEST-${randomUUID().slice(0, 8).toUpperCase()}`,
      name: 'Test unit',
      description: 'A unit made by the test.',
      location: 'Testville',
      status: 'AVAILABLE',
      totalValue: '100000.00',
      availablePercentage: '50.000000',
      minInvestment: '1000.00',
      expectedReturn: '5.000000',
      ...data,
      categoryId,
    },
  });
}
