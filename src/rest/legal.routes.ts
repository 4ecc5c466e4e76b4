import type { LegalTextQueryVariables } from './generated/operations';
import { route } from './route';

const legalRoute = (path: string, kind: LegalTextQueryVariables['kind'], summary: string) =>
  route<LegalTextQueryVariables>({ method: 'GET', path, operation: 'LegalText', summary, auth: 'guest', variables: () => ({ kind }) });

export const legalRoutes = [
  legalRoute('/legal/privacy-policy', 'PRIVACY_POLICY', 'Privacy policy'),
  legalRoute('/legal/terms-of-service', 'TERMS_OF_SERVICE', 'Terms of service'),
  legalRoute('/legal/investment-disclaimer', 'INVESTMENT_DISCLAIMER', 'Investment disclaimer'),
];
