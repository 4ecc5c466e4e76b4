/**
 * Type-level tests of the service views and the GraphQL object types built on them: compiled by
 * `npm run typecheck`, never run. Each view is derived from Prisma's generated types (its select,
 * `satisfies Prisma.XSelect`, or the model), and each object type `implements` its view; these
 * checks add what `implements` cannot see (a field the object type exposes but the view lacks) and
 * pin the rules with examples. Each `@ts-expect-error` fails the type check if the line below it
 * stops being an error.
 */
import type * as Db from '../../src/generated/prisma/client';
import type { Prisma } from '../../src/generated/prisma/client';
import { pageQuery } from '../../src/services/pagination';
import type { CategoryAum, DistributionTotal, WithdrawalVolume } from '../../src/schema/analytics.type';
import type { AppConfig } from '../../src/schema/app-config.type';
import type { AuthPayload } from '../../src/schema/auth.type';
import type { AuditActor, AuditEvent, AuditTarget } from '../../src/schema/audit.type';
import type { CategoryMembership } from '../../src/schema/category-membership.type';
import type { Category, CategoryRef, PublicCategory } from '../../src/schema/category.type';
import type { Dashboard, DashboardSummary, TopGainer } from '../../src/schema/dashboard.type';
import type { Distribution, DistributionDeclaration, DistributionDeclarationDetail } from '../../src/schema/distribution.type';
import type { InvestmentRequest } from '../../src/schema/investment-request.type';
import type { Investor } from '../../src/schema/investor.type';
import type { KycDocument, KycStatusSummary } from '../../src/schema/kyc.type';
import type { LegalText } from '../../src/schema/legal.type';
import type { DeviceToken, Notification } from '../../src/schema/notification.type';
import type { Payout } from '../../src/schema/payout.type';
import type { Portfolio, PortfolioHolding, PortfolioPerformance, QuarterlyDistributions, Transaction, UnitPerformance } from '../../src/schema/portfolio.type';
import type { UserSettings } from '../../src/schema/settings.type';
import type { MyHolding, PublicUnit, Unit, UnitValuation } from '../../src/schema/unit.type';
import type { User } from '../../src/schema/user.type';
import type { UnitRef, WithdrawalRequest } from '../../src/schema/withdrawal-request.type';
import type { CategoryAumView, DistributionTotalView, WithdrawalVolumeView } from '../../src/services/analytics.service';
import type { AppConfigView } from '../../src/services/app-config.service';
import type { AuditActor as AuditActorView, AuditEventView } from '../../src/services/audit.service';
import type { AuthResult, UserView } from '../../src/services/auth.service';
import type { CategoryMembershipView } from '../../src/services/category-membership.service';
import type { CategoryRefView, CategoryView } from '../../src/services/category.service';
import type { DashboardView, QuarterView, SummaryView, TopGainerView } from '../../src/services/dashboard.service';
import type { DeclarationDetailView, DeclarationView, DistributionView } from '../../src/services/distribution.service';
import type { InvestmentRequestView } from '../../src/services/investment-request.service';
import type { InvestorView } from '../../src/services/investor.service';
import type { KycDocumentView, KycStatusSummaryView } from '../../src/services/kyc.service';
import type { LegalTextView } from '../../src/services/legal.service';
import type { DeviceTokenView, NotificationView } from '../../src/services/notification.service';
import type { PayoutView } from '../../src/services/payout.service';
import type { PerformanceView, PortfolioHoldingView, PortfolioView, TransactionView, UnitPerformanceView } from '../../src/services/portfolio.service';
import type { UserSettingsView } from '../../src/services/settings.service';
import type { MyHoldingView, UnitRefView, UnitView } from '../../src/services/unit.service';
import type { WithdrawalRequestView } from '../../src/services/withdrawal-request.service';

/** true when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

/** Every field a view shares with its model has the column's type. */
type ColumnsAgree<View, Model> = false extends { [K in keyof View & keyof Model]: Same<View[K], Model[K]> }[keyof View & keyof Model] ? false : true;

/** The object type exposes exactly the view's fields: none missing (implements checks that too), none extra. */
type Exposes<ObjectType, View> = Same<keyof ObjectType, keyof View>;

export const columns = [
  check<ColumnsAgree<DistributionView, Db.Distribution>>(),
  check<ColumnsAgree<DeclarationView, Db.DistributionDeclaration>>(),
  check<ColumnsAgree<UnitView, Db.Unit>>(),
  check<ColumnsAgree<MyHoldingView, Db.Holding>>(),
  check<ColumnsAgree<UnitRefView, Db.Unit>>(),
  check<ColumnsAgree<CategoryView, Db.Category>>(),
  check<ColumnsAgree<CategoryRefView, Db.Category>>(),
  check<ColumnsAgree<Omit<InvestorView, 'id' | 'createdAt'>, Db.User>>(),
  check<ColumnsAgree<InvestorView, Db.Investor>>(),
  check<ColumnsAgree<NotificationView, Db.Notification>>(),
  check<ColumnsAgree<DeviceTokenView, Db.DeviceToken>>(),
  check<ColumnsAgree<UserView, Db.User>>(),
  check<ColumnsAgree<Omit<AuditEventView, 'id'>, Db.AuditEvent>>(),
  check<ColumnsAgree<PayoutView, Db.Payout>>(),
  check<ColumnsAgree<WithdrawalRequestView, Db.WithdrawalRequest>>(),
  check<ColumnsAgree<InvestmentRequestView, Db.InvestmentRequest>>(),
  check<ColumnsAgree<TransactionView, Db.Transaction>>(),
  check<ColumnsAgree<KycDocumentView, Db.KycDocument>>(),
  check<ColumnsAgree<CategoryMembershipView, Db.CategoryMembership>>(),
  check<ColumnsAgree<UserSettingsView, Db.UserSettings>>(),
  check<ColumnsAgree<AppConfigView, Db.AppConfig>>(),
  check<ColumnsAgree<LegalTextView, Db.LegalText>>(),
  check<Same<AuditActorView['id'], NonNullable<Db.AuditEvent['actorId']>>>(),
];

export const exposed = [
  check<Exposes<Distribution, DistributionView>>(),
  check<Exposes<DistributionDeclaration, DeclarationView>>(),
  check<Exposes<DistributionDeclarationDetail, DeclarationDetailView>>(),
  check<Exposes<Unit, UnitView>>(),
  check<Exposes<PublicUnit, Omit<UnitView, 'myHolding'>>>(),
  check<Exposes<MyHolding, MyHoldingView>>(),
  check<Exposes<UnitRef, UnitRefView>>(),
  check<Exposes<Category, CategoryView>>(),
  check<Exposes<PublicCategory, Omit<CategoryView, 'isActive'>>>(),
  check<Exposes<CategoryRef, CategoryRefView>>(),
  check<Exposes<Investor, InvestorView>>(),
  check<Exposes<Notification, NotificationView>>(),
  check<Exposes<DeviceToken, DeviceTokenView>>(),
  check<Exposes<User, UserView>>(),
  check<Exposes<AuditEvent, AuditEventView>>(),
  check<Exposes<AuditActor, AuditActorView>>(),
  check<Exposes<AuditTarget, NonNullable<AuditEventView['target']>>>(),
  check<Exposes<Payout, PayoutView>>(),
  check<Exposes<WithdrawalRequest, WithdrawalRequestView>>(),
  check<Exposes<InvestmentRequest, InvestmentRequestView>>(),
  check<Exposes<Transaction, TransactionView>>(),
  check<Exposes<KycDocument, KycDocumentView>>(),
  check<Exposes<CategoryMembership, CategoryMembershipView>>(),
  check<Exposes<UserSettings, UserSettingsView>>(),
  check<Exposes<AppConfig, AppConfigView>>(),
  check<Exposes<LegalText, LegalTextView>>(),
  check<Exposes<TopGainer, TopGainerView>>(),
  check<Exposes<DashboardSummary, SummaryView>>(),
  check<Exposes<Dashboard, DashboardView>>(),
  check<Exposes<QuarterlyDistributions, QuarterView>>(),
  check<Exposes<Portfolio, PortfolioView>>(),
  check<Exposes<PortfolioHolding, PortfolioHoldingView>>(),
  check<Exposes<PortfolioPerformance, PerformanceView>>(),
  check<Exposes<UnitPerformance, UnitPerformanceView>>(),
  check<Exposes<KycStatusSummary, KycStatusSummaryView>>(),
  check<Exposes<CategoryAum, CategoryAumView>>(),
  check<Exposes<DistributionTotal, DistributionTotalView>>(),
  check<Exposes<WithdrawalVolume, WithdrawalVolumeView>>(),
  check<Exposes<UnitValuation, Db.UnitValuation>>(),
  check<Exposes<AuthPayload, AuthResult>>(),
];

// What the checks catch.
type HandWritten = Omit<DistributionView, 'grossAmount'> & { grossAmount: number };
interface ExtraField extends Distribution {
  declaredBy: string;
}
export const drift = [
  // @ts-expect-error a hand-written view whose money field is a number, not the column's Decimal
  check<ColumnsAgree<HandWritten, Db.Distribution>>(),
  // @ts-expect-error an object type field the view does not supply (GraphQL would answer null for it)
  check<Exposes<ExtraField, DistributionView>>(),
  // @ts-expect-error a select naming a column the model does not have (a renamed column): selects are `satisfies Prisma.XSelect`
  { grossAmt: true } satisfies Prisma.DistributionSelect,
];

// pageQuery checks its arguments like the delegate's findMany and types the rows by the select.
declare const db: Db.PrismaClient;
const payouts = pageQuery(db.payout, { where: { investorId: 1 }, select: { id: true, unit: { select: { name: true } } } });
export const rows = payouts.rows({ skip: 0, take: 1 }).then(([row]) => {
  const typed: [number, string] = [row.id, row.unit.name];
  // @ts-expect-error `amount` was not selected
  return [typed, row.amount];
});
export const misspelt = [
  // @ts-expect-error Payout has `investorId`, not `investor_id`
  pageQuery(db.payout, { where: { investor_id: 1 } }),
  // @ts-expect-error no column `amountt` to select
  pageQuery(db.payout, { select: { amountt: true } }),
  // @ts-expect-error the window is paginate's: skip and take are not arguments
  pageQuery(db.payout, { where: {}, take: 5 }),
];
