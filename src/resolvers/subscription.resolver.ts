import { Authorized, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../http/context';
import { ServiceUnavailableError, UnauthenticatedError } from '../domain/errors';
import type { Delivery, LiveSource, LiveStream, WatchedType } from '../services/change-feed';
import { Role } from '../schema/enums';
import { InvestmentRequest } from '../schema/investment-request.type';
import { KycStatusSummary } from '../schema/kyc.type';
import { Notification } from '../schema/notification.type';
import { WithdrawalRequest } from '../schema/withdrawal-request.type';
import type { InvestmentRequestView } from '../services/investment-request.service';
import type { KycStatusSummaryView } from '../services/kyc.service';
import type { NotificationView } from '../services/notification.service';
import type { WithdrawalRequestView } from '../services/withdrawal-request.service';

/**
 * The subscriber's stream of `type` changes from `source`, the service's live loader: loaded once per
 * commit for every subscriber, each shown only what the service's ownership rule (the one its queries
 * use) lets this user see; a change the user may not see is never sent.
 */
function live<V>(context: Context, type: WatchedType, source: LiveSource<V>): LiveStream<V> {
  const { user, live: options } = context;
  if (!user) throw new UnauthenticatedError();
  // Only the WebSocket face sets these; over HTTP subscriptionsOverWebSocketOnly refuses subscriptions before they run.
  if (!options) throw new ServiceUnavailableError();
  return context.services.changes.watch(user, type, source, options);
}

/** Live updates for the dashboard (contract §3, "Subscriptions"), served over WebSocket at /graphql (src/graphql/subscriptions.ts). */
@Resolver()
export class SubscriptionResolver {
  @Authorized()
  @Subscription(() => Notification, {
    description: "The signed-in user's new notifications, as they are committed.",
    subscribe: ({ context }) => live(context as Context, 'notification', (context as Context).services.notifications.live),
  })
  notificationAdded(@Root() delivery: Delivery<NotificationView>): NotificationView {
    return delivery.value;
  }

  @Authorized()
  @Subscription(() => InvestmentRequest, {
    description: "Each change of an investment request (created, reviewed, cancelled): investors their own, admins and analysts every investor's.",
    subscribe: ({ context }) => live(context as Context, 'investment_request', (context as Context).services.investmentRequests.live),
  })
  investmentRequestUpdated(@Root() delivery: Delivery<InvestmentRequestView>): InvestmentRequestView {
    return delivery.value;
  }

  @Authorized()
  @Subscription(() => WithdrawalRequest, {
    description: "Each change of a withdrawal request (created, reviewed, completed, cancelled): investors their own, admins and analysts every investor's.",
    subscribe: ({ context }) => live(context as Context, 'withdrawal_request', (context as Context).services.withdrawalRequests.live),
  })
  withdrawalRequestUpdated(@Root() delivery: Delivery<WithdrawalRequestView>): WithdrawalRequestView {
    return delivery.value;
  }

  @Authorized(Role.INVESTOR)
  @Subscription(() => KycStatusSummary, {
    description: "The signed-in investor's verification state, each time a document is uploaded or reviewed. Investors only (staff: FORBIDDEN).",
    subscribe: ({ context }) => live(context as Context, 'kyc_status', (context as Context).services.kyc.live),
  })
  kycStatusChanged(@Root() delivery: Delivery<KycStatusSummaryView>): KycStatusSummaryView {
    return delivery.value;
  }
}
