import { DistributionCadence, DistributionType, LegalTextKind } from '../../generated/prisma/enums';
import type { Random } from './random';

/** The seed's words: places, category kinds and names, the app's option lists, legal texts. */

export interface City {
  city: string;
  country: string;
  countryName: string;
  tz: string;
  currency: string;
  language: string;
  phone: string;
}
export const CITIES: City[] = [
  ['Lisbon', 'PT', 'Portugal', 'Europe/Lisbon', 'EUR', 'pt', '351'],
  ['Porto', 'PT', 'Portugal', 'Europe/Lisbon', 'EUR', 'pt', '351'],
  ['Madrid', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['Barcelona', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['Valencia', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['London', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Manchester', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Edinburgh', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Bristol', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Dublin', 'IE', 'Ireland', 'Europe/Dublin', 'EUR', 'en', '353'],
  ['Paris', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Lyon', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Bordeaux', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Berlin', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Munich', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Hamburg', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Amsterdam', 'NL', 'Netherlands', 'Europe/Amsterdam', 'EUR', 'nl', '31'],
  ['Rotterdam', 'NL', 'Netherlands', 'Europe/Amsterdam', 'EUR', 'nl', '31'],
  ['Brussels', 'BE', 'Belgium', 'Europe/Brussels', 'EUR', 'fr', '32'],
  ['Vienna', 'AT', 'Austria', 'Europe/Vienna', 'EUR', 'de', '43'],
  ['Zurich', 'CH', 'Switzerland', 'Europe/Zurich', 'CHF', 'de', '41'],
  ['Milan', 'IT', 'Italy', 'Europe/Rome', 'EUR', 'it', '39'],
  ['Florence', 'IT', 'Italy', 'Europe/Rome', 'EUR', 'it', '39'],
  ['Stockholm', 'SE', 'Sweden', 'Europe/Stockholm', 'SEK', 'sv', '46'],
  ['Copenhagen', 'DK', 'Denmark', 'Europe/Copenhagen', 'DKK', 'da', '45'],
  ['Oslo', 'NO', 'Norway', 'Europe/Oslo', 'NOK', 'nb', '47'],
  ['Warsaw', 'PL', 'Poland', 'Europe/Warsaw', 'PLN', 'pl', '48'],
  ['Prague', 'CZ', 'Czechia', 'Europe/Prague', 'CZK', 'cs', '420'],
  ['New York', 'US', 'United States', 'America/New_York', 'USD', 'en', '1'],
  ['Boston', 'US', 'United States', 'America/New_York', 'USD', 'en', '1'],
  ['Chicago', 'US', 'United States', 'America/Chicago', 'USD', 'en', '1'],
  ['Austin', 'US', 'United States', 'America/Chicago', 'USD', 'en', '1'],
  ['Toronto', 'CA', 'Canada', 'America/Toronto', 'CAD', 'en', '1'],
  ['Dubai', 'AE', 'United Arab Emirates', 'Asia/Dubai', 'AED', 'en', '971'],
  ['Singapore', 'SG', 'Singapore', 'Asia/Singapore', 'SGD', 'en', '65'],
  ['Sydney', 'AU', 'Australia', 'Australia/Sydney', 'AUD', 'en', '61'],
].map(([city, country, countryName, tz, currency, language, phone]) => ({ city, country, countryName, tz, currency, language, phone }));

type Suffix = (rng: Random) => string;
export interface CategoryDef {
  name: string;
  slug: string;
  icon: string;
  color: string;
  featured: boolean;
  description: string;
  /** Unit names are a street (faker), one of these and a suffix. */
  kinds: string[];
  suffix: Suffix;
  values: number[];
  returns: [number, number];
  mainType: DistributionType;
  /** How often its units pay (SPECIAL is no unit's cadence: a one-off besides it). */
  cadence: DistributionCadence;
}

// Values are 2^a·5^b multiples so that round amounts map to exact 6-decimal percentages.
const V = {
  s: [250_000, 320_000, 400_000, 500_000, 640_000, 800_000],
  m: [800_000, 1_000_000, 1_250_000, 1_600_000, 2_000_000],
  l: [2_000_000, 2_500_000, 3_200_000, 4_000_000, 5_000_000, 6_400_000],
};

export const CATEGORIES: CategoryDef[] = [
  {
    name: 'Residential',
    slug: 'residential',
    icon: 'home',
    color: '#2E7D32',
    featured: true,
    description: 'Apartments and townhouses let on long-term tenancies in established neighbourhoods.',
    kinds: ['Apartment', 'Townhouse', 'Loft', 'Residence'],
    suffix: (r) => `${r.int(1, 24)}${r.pick(['A', 'B', 'C', 'D'])}`,
    values: [...V.s, ...V.m.slice(0, 3)],
    returns: [4.5, 6.5],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.MONTHLY,
  },
  {
    name: 'Commercial',
    slug: 'commercial',
    icon: 'building',
    color: '#1565C0',
    featured: true,
    description: 'Offices and retail space let to established businesses on multi-year leases.',
    kinds: ['Office Suite', 'Retail Unit', 'Business Centre Floor'],
    suffix: (r) => `${r.int(1, 9)}.0${r.int(1, 9)}`,
    values: [...V.m, ...V.l.slice(0, 4)],
    returns: [6, 8],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.QUARTERLY,
  },
  {
    name: 'Hospitality',
    slug: 'hospitality',
    icon: 'hotel',
    color: '#AD1457',
    featured: false,
    description: 'Hotel rooms, serviced apartments and holiday lets run by professional operators.',
    kinds: ['Boutique Hotel Suite', 'Serviced Apartment', 'Resort Villa'],
    suffix: (r) => String(r.int(1, 40)),
    values: [...V.s.slice(3), ...V.m, ...V.l.slice(0, 3)],
    returns: [7, 10],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.QUARTERLY,
  },
  {
    name: 'Logistics',
    slug: 'logistics',
    icon: 'truck',
    color: '#EF6C00',
    featured: false,
    description: 'Warehouses and last-mile distribution space near motorways and ports.',
    kinds: ['Distribution Bay', 'Warehouse Unit', 'Cold Storage Hall'],
    suffix: (r) => String(r.int(1, 18)),
    values: [...V.m.slice(2), ...V.l],
    returns: [5.5, 7.5],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.QUARTERLY,
  },
  {
    name: 'Farmland',
    slug: 'farmland',
    icon: 'sprout',
    color: '#827717',
    featured: false,
    description: 'Productive agricultural land leased to experienced farmers.',
    kinds: ['Orchard Parcel', 'Vineyard Plot', 'Arable Field'],
    suffix: (r) => String(r.int(1, 12)),
    values: [...V.s, ...V.m.slice(0, 4)],
    returns: [3.5, 5.5],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.ANNUAL,
  },
  {
    name: 'Renewable Energy',
    slug: 'renewable-energy',
    icon: 'sun',
    color: '#F9A825',
    featured: true,
    description: 'Solar, wind and storage assets selling power under long-term contracts.',
    kinds: ['Solar Array Block', 'Wind Turbine', 'Battery Storage Unit'],
    suffix: (r) => r.pick(['A', 'B', 'C', 'D', 'E', 'F']),
    values: [...V.m.slice(1), ...V.l],
    returns: [7, 9.5],
    mainType: DistributionType.DIVIDEND,
    cadence: DistributionCadence.SEMI_ANNUAL,
  },
  {
    name: 'Student Housing',
    slug: 'student-housing',
    icon: 'graduation-cap',
    color: '#6A1B9A',
    featured: false,
    description: 'Purpose-built student accommodation close to universities.',
    kinds: ['Studio', 'Cluster Flat', 'En-suite Room Block'],
    suffix: (r) => String(r.int(101, 420)),
    values: [...V.s.slice(3), ...V.m],
    returns: [6, 8],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.SEMI_ANNUAL,
  },
  {
    name: 'Healthcare',
    slug: 'healthcare',
    icon: 'heart-pulse',
    color: '#C62828',
    featured: false,
    description: 'Clinics, medical suites and care homes let to healthcare operators.',
    kinds: ['Medical Suite', 'Care Home Wing', 'Clinic Unit'],
    suffix: (r) => String(r.int(1, 16)),
    values: [...V.m, ...V.l.slice(0, 3)],
    returns: [5.5, 7],
    mainType: DistributionType.RENTAL_INCOME,
    cadence: DistributionCadence.QUARTERLY,
  },
];

export const ICON_OPTIONS = ['home', 'building', 'hotel', 'truck', 'sprout', 'sun', 'graduation-cap', 'heart-pulse', 'wind', 'leaf', 'briefcase', 'star'];
export const BADGE_OPTIONS = ['New', 'Featured', 'Hot', 'Limited', 'High Yield', 'Almost Funded', 'Fully Funded'];
export const COLOR_OPTIONS = ['#2E7D32', '#1565C0', '#AD1457', '#EF6C00', '#827717', '#F9A825', '#6A1B9A', '#C62828', '#00838F', '#37474F'];

export const LEGAL_TEXTS: { kind: LegalTextKind; title: string; paragraphs: string[] }[] = [
  {
    kind: LegalTextKind.PRIVACY_POLICY,
    title: 'Privacy Policy',
    paragraphs: [
      'This policy explains which personal data we collect when you use the platform, why we collect it and how long we keep it. We process your data as a controller under the General Data Protection Regulation and applicable national law.',
      'We collect the information you give us when you register and invest (name, contact details, date of birth, identity documents and bank details), and technical data about the devices you use to sign in. Identity documents are used only to meet our anti-money-laundering obligations.',
      'We keep account and transaction records for as long as the law requires, which is usually ten years after the end of the business relationship. Identity documents are deleted five years after your account is closed.',
      'You may ask for a copy of your data, its correction or its deletion, and you may object to processing at any time by writing to support@demo.test. You also have the right to lodge a complaint with your data protection authority.',
    ],
  },
  {
    kind: LegalTextKind.TERMS_OF_SERVICE,
    title: 'Terms of Service',
    paragraphs: [
      'These terms govern your use of the platform and form a contract between you and the operator. By creating an account you confirm that you are at least 18 years old and that the information you provide is accurate.',
      'Investments are made by submitting an investment request, which becomes binding once approved. Ownership percentages are recorded in the platform ledger, which is the authoritative record of your holdings.',
      'Distributions are declared per unit and period and are paid out net of the management fee stated in the declaration. Withdrawal requests are reviewed within five business days and paid at the recorded invested amount.',
      'We may suspend accounts that breach these terms or where required by law. These terms are governed by the laws of Portugal, and the courts of Lisbon have exclusive jurisdiction.',
    ],
  },
  {
    kind: LegalTextKind.INVESTMENT_DISCLAIMER,
    title: 'Investment Disclaimer',
    paragraphs: [
      'Investing in real assets involves risk, including the loss of the capital you invest. Past performance and projected returns are not a reliable indicator of future results.',
      'Units are illiquid: you may not be able to withdraw your investment when you wish, and withdrawals are subject to review and to the limits set for each unit.',
      'Nothing on the platform is investment, tax or legal advice. You should consider whether an investment is suitable for you and, if in doubt, consult an independent financial adviser.',
    ],
  },
];
