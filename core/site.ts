/**
 * The site's facts in one place: every external URL, the office address, phone and e-mail. The
 * header and footer elements and the host site's pages all read them from here.
 */
export const SITE = {
  name: 'eXp Realty Ecuador',
  /** canonical origin of the public site (hreflang, JSON-LD) */
  url: 'https://expecuador.example',
  office: {
    street: 'Av. República de El Salvador N34-183 y Suiza, Edificio Torre Sigma, piso 8',
    city: 'Quito',
    postalCode: '170135',
    region: 'Pichincha',
    country: 'Ecuador',
  },
  phone: '+593 2 600 1234',
  email: 'hola@expecuador.example',
  external: {
    agentLogin: 'https://exprealty.okta.com/',
    join: 'https://join.exprealty.com/',
    joinInternational: 'https://join.exprealty.com/international',
    careers: 'https://www.exprealty.com/careers',
    brand: 'https://brand.exprealty.com/',
    conference: 'https://expcon.exprealty.com/',
    lifestyle: 'https://life.exprealty.com/',
    international: 'https://expglobal.exprealty.com/',
    parent: 'https://expworldholdings.com/',
    commercial: 'https://expcommercial.com/',
    luxury: 'https://expluxury.com/',
    terms: 'https://www.exprealty.com/terms-of-service',
    cookies: 'https://www.exprealty.com/cookie-policy',
    investors: 'https://expworldholdings.com/investors/',
    campus: 'https://expworld.exprealty.com/',
    webinar: 'https://exprealty.zoom.us/webinar/register/ecuador-informativo',
    webinarWidget: 'https://events.zoom.us/widget/embed.js',
    socialWidget: 'https://static.elfsight.com/platform/platform.js',
  },
  social: {
    facebook: 'https://www.facebook.com/exprealtyecuador',
    linkedin: 'https://www.linkedin.com/company/exp-realty-ecuador',
    instagram: 'https://www.instagram.com/exprealtyecuador',
    youtube: 'https://www.youtube.com/@exprealtyecuador',
  },
  cities: ['Quito', 'Guayaquil', 'Cuenca'],
  /**
   * The payment calculator's starting terms (core/protocol/payment.ts), one per kind of lender a
   * buyer here compares: a deployment sets them from the lenders' published rates and says when it
   * read them; each lender's name and where its rate comes from are the locale files'
   * `payment.lenders.<id>` (shown under the calculator). The first is the default.
   */
  mortgage: [
    { id: 'bank', downPaymentPct: 30, years: 20, annualRatePct: 9.9, asOf: '2026-11-01' },
    { id: 'biess', downPaymentPct: 10, years: 25, annualRatePct: 8.69, asOf: '2026-11-01' },
  ],
} as const;
