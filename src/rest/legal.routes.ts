import type { LegalTextQueryVariables } from './generated/operations';
import { route } from './route';

/** One operation behind three paths: each row names its own operationId. */
const legalRoute = (path: string, kind: LegalTextQueryVariables['kind'], summary: string, operationId: string) =>
  route<LegalTextQueryVariables>({
    method: 'GET',
    path,
    operation: 'LegalText',
    operationId,
    summary,
    auth: 'guest',
    variables: () => ({ kind }),
    description: `The current ${summary.toLowerCase()} (kind, title, content, version, publication date) as admins last published it. Open to guests.`,
    errors: { 404: 'No text of this kind has been published yet.' },
  });

export const legalRoutes = [
  legalRoute('/legal/privacy-policy', 'PRIVACY_POLICY', 'Privacy policy', 'PrivacyPolicy'),
  legalRoute('/legal/terms-of-service', 'TERMS_OF_SERVICE', 'Terms of service', 'TermsOfService'),
  legalRoute('/legal/investment-disclaimer', 'INVESTMENT_DISCLAIMER', 'Investment disclaimer', 'InvestmentDisclaimer'),
];
