/**
 * The agents of the seed. The first six are the sample agents of the specification, with full
 * profiles (docs/decisions.md #6); the rest are realistic directory entries, some with partly empty
 * fields as real directories have them. A few agents of other countries must never be shown.
 */
import type { AgentProfileRecord } from '../../core/protocol/records.ts';
import { fold } from '../../core/protocol/text.ts';

/** A seed agent: the public columns, and the private ones the public key never reads. */
export interface AgentRow extends AgentProfileRecord {
  country_code: string;
  private_notes: string | null;
  created_at: string;
  /** cities this agent mostly lists in (seed only, not a column) */
  home: string[];
}

const DOMAIN = 'expecuador.example';

/** What an agent who has not filled in a profile has. */
const NO_PROFILE = {
  location: null,
  about: null,
  about_es: null,
  languages: null,
  specializations: null,
  certifications: null,
  locations_served: null,
  facebook: null,
  instagram: null,
  linkedin: null,
  website: null,
};

/** A name as a mailbox or a host has it: 'Vásconez' -> 'vasconez', 'María José' -> 'mariajose'. */
export function mailboxWord(name: string | null): string {
  return fold(name ?? '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
}

function email(first: string, last: string): string {
  return `${mailboxWord(first.split(' ')[0] ?? first)}.${mailboxWord(last.split(' ')[0] ?? last)}@${DOMAIN}`;
}

// prettier-ignore
const SAMPLE: Array<Omit<AgentRow, 'id' | 'email' | 'picture' | 'country_code' | 'private_notes' | 'created_at'>> = [
  {
    first_name: 'María Fernanda', last_name: 'Andrade', phone: '099 214 5587', location: 'Quito, Pichincha', home: ['Quito', 'Cumbayá', 'Tumbaco'],
    about: 'María Fernanda has helped families and international buyers find homes in Quito and the Tumbaco valley for over twelve years. Before real estate she worked in urban planning, so she knows how each neighbourhood is changing and what that means for value. Clients value her patience, her market data and her network of lawyers and notaries who make closing simple.',
    about_es: 'Desde hace más de doce años, María Fernanda ayuda a familias y compradores extranjeros a encontrar su casa en Quito y el valle de Tumbaco. Antes de dedicarse a los bienes raíces trabajó en planificación urbana, así que sabe cómo cambia cada barrio y qué significa eso para el valor de una propiedad. Sus clientes valoran su paciencia, sus datos de mercado y su red de abogados y notarios, que hacen sencillo el cierre.',
    languages: ['English', 'Spanish'], specializations: ['Luxury homes', 'Relocation', 'First-time buyers'], certifications: ['Certified Residential Specialist (CRS)', 'Accredited Buyer Representative (ABR)'],
    locations_served: ['Quito', 'Cumbayá', 'Tumbaco', 'Puembo'], facebook: 'https://www.facebook.com/mfandrade.exp', instagram: 'https://www.instagram.com/mfandrade.exp', linkedin: 'https://www.linkedin.com/in/mfandrade-exp', website: 'https://mfandrade.expecuador.example',
  },
  {
    first_name: 'Carlos Eduardo', last_name: 'Mendoza', phone: '098 331 7042', location: 'Guayaquil, Guayas', home: ['Guayaquil', 'Samborondón'],
    about: 'Carlos is a Guayaquil native who specialises in Samborondón and the Vía a la Costa. With a background in civil engineering he reviews every property with a builder\'s eye, from structure to drainage, and negotiates with the facts in hand. He also advises investors on rental yields in the city\'s business districts.',
    about_es: 'Carlos es guayaquileño y se especializa en Samborondón y la Vía a la Costa. Ingeniero civil de formación, revisa cada propiedad con ojo de constructor, de la estructura al drenaje, y negocia con los hechos en la mano. También asesora a inversionistas sobre la rentabilidad de los arriendos en los distritos de negocios de la ciudad.',
    languages: ['Spanish', 'English'], specializations: ['Gated communities', 'Investment property', 'New developments'], certifications: ['Seller Representative Specialist (SRS)'],
    locations_served: ['Guayaquil', 'Samborondón', 'Vía a la Costa', 'Daule'], facebook: 'https://www.facebook.com/cmendoza.exp', instagram: 'https://www.instagram.com/cmendoza.exp', linkedin: 'https://www.linkedin.com/in/carlos-mendoza-exp', website: null,
  },
  {
    first_name: 'Gabriela', last_name: 'Villacís', phone: '099 870 1123', location: 'Cuenca, Azuay', home: ['Cuenca'],
    about: 'Gabriela guides expats and returning Ecuadorians through buying in Cuenca, from the colonial centre to the quiet streets along the Tomebamba river. She explains every step of the purchase and the residency process in plain language and stays in touch long after the keys are handed over.',
    about_es: 'Gabriela acompaña a extranjeros y a ecuatorianos que regresan al país en la compra de su casa en Cuenca, del centro colonial a las calles tranquilas junto al río Tomebamba. Explica cada paso de la compra y del trámite de residencia en palabras sencillas, y sigue en contacto mucho después de entregar las llaves.',
    languages: ['Spanish', 'English', 'French'], specializations: ['Expat buyers', 'Historic properties', 'Retirement homes'], certifications: ['Certified International Property Specialist (CIPS)', 'Seniors Real Estate Specialist (SRES)'],
    locations_served: ['Cuenca', 'Challuabamba', 'Gualaceo', 'Paute'], facebook: 'https://www.facebook.com/gvillacis.exp', instagram: null, linkedin: 'https://www.linkedin.com/in/gabriela-villacis', website: 'https://cuenca-homes.expecuador.example',
  },
  {
    first_name: 'Andrés', last_name: 'Cordero', phone: '098 552 9017', location: 'Manta, Manabí', home: ['Manta', 'Bahía de Caráquez'],
    about: 'Andrés covers the Manabí coast, from the towers of Barbasquillo to the beach lots of Santa Marianita. A surfer and a former hotel manager, he knows which buildings rent well in high season and which beaches stay quiet all year.',
    about_es: 'Andrés cubre la costa de Manabí, de las torres de Barbasquillo a los lotes frente al mar de Santa Marianita. Surfista y exgerente de hotel, sabe qué edificios se arriendan bien en temporada alta y qué playas siguen tranquilas todo el año.',
    languages: ['Spanish', 'English'], specializations: ['Beachfront property', 'Vacation rentals', 'Land'], certifications: ['Resort & Second-Home Property Specialist (RSPS)'],
    locations_served: ['Manta', 'Santa Marianita', 'San Lorenzo', 'Bahía de Caráquez'], facebook: null, instagram: 'https://www.instagram.com/andrescordero.exp', linkedin: 'https://www.linkedin.com/in/andres-cordero-exp', website: null,
  },
  {
    first_name: 'Daniela', last_name: 'Paredes', phone: '099 407 6638', location: 'Quito, Pichincha', home: ['Quito'],
    about: 'Daniela leads commercial real estate for eXp Ecuador in Quito: offices along Av. República de El Salvador, retail space in La Carolina and whole buildings for investors. She pairs every search with a clear financial analysis so that owners and tenants decide quickly and with confidence.',
    about_es: 'Daniela dirige los bienes raíces comerciales de eXp Ecuador en Quito: oficinas en la Av. República de El Salvador, locales en La Carolina y edificios completos para inversionistas. Acompaña cada búsqueda con un análisis financiero claro, para que propietarios e inquilinos decidan rápido y con confianza.',
    languages: ['Spanish', 'English', 'Portuguese'], specializations: ['Commercial', 'Offices', 'Retail leasing'], certifications: ['Certified Commercial Investment Member (CCIM)'],
    locations_served: ['Quito', 'La Carolina', 'Iñaquito', 'Cumbayá'], facebook: 'https://www.facebook.com/dparedes.exp', instagram: null, linkedin: 'https://www.linkedin.com/in/daniela-paredes-ccim', website: 'https://dparedes.expecuador.example',
  },
  {
    first_name: 'José Luis', last_name: 'Espinosa', phone: '098 119 4420', location: 'Salinas, Santa Elena', home: ['Salinas', 'Montañita', 'Olón'],
    about: 'José Luis sells homes and land along the Ruta del Spondylus, from Salinas to Olón. He grew up in Santa Elena, works with local builders on custom homes and helps buyers check titles, water and road access before they fall in love with a view.',
    about_es: 'José Luis vende casas y terrenos a lo largo de la Ruta del Spondylus, de Salinas a Olón. Creció en Santa Elena, trabaja con constructores locales en casas a medida y ayuda a los compradores a revisar escrituras, agua y acceso antes de enamorarse de una vista.',
    languages: ['Spanish', 'English'], specializations: ['Beach homes', 'Land', 'Custom builds'], certifications: ['Accredited Buyer Representative (ABR)'],
    locations_served: ['Salinas', 'Punta Blanca', 'Montañita', 'Olón', 'Ayangue'], facebook: 'https://www.facebook.com/jlespinosa.exp', instagram: 'https://www.instagram.com/jlespinosa.exp', linkedin: null, website: null,
  },
];

// prettier-ignore
const FIRST = ['Sofía', 'Mateo', 'Valentina', 'Sebastián', 'Camila', 'Diego', 'Isabella', 'Nicolás', 'Paula', 'Santiago', 'Lucía', 'Martín', 'Ana', 'Juan Carlos', 'Verónica', 'Esteban', 'Carolina', 'Ricardo', 'Mónica', 'Felipe', 'Patricia', 'Xavier', 'Elena', 'Fernando', 'Cristina', 'Pablo', 'Natalia', 'Jorge', 'Andrea', 'Luis', 'Tatiana', 'Iván', 'Karla', 'Roberto', 'Ximena', 'Óscar', 'Daniel', 'Ana Lucía', 'Ángel', 'Renata', 'Miguel'];
// prettier-ignore
const LAST = ['Guerrero', 'Zambrano', 'Salazar', 'Vásquez', 'Cevallos', 'Jaramillo', 'Ordóñez', 'Muñoz', 'Benítez', 'Rivadeneira', 'Castillo', 'Naranjo', 'Ponce', 'Núñez', 'Aguirre', 'Egas', 'Larrea', 'Montalvo', 'Chiriboga', 'Almeida', 'Peñaherrera', 'Carrión', 'Tapia', 'Vallejo', 'Moreno', 'Herrera', 'Sánchez', 'Martínez', 'Cárdenas', 'Bravo', 'Proaño', 'Endara', 'Velasco', 'León', 'Arias', 'Sarmiento', 'Dávila', 'Montesdeoca', 'Romero', 'Yépez', 'Quintana'];
// prettier-ignore
const CITIES = ['Quito', 'Quito', 'Guayaquil', 'Cuenca', 'Cumbayá', 'Samborondón', 'Manta', 'Salinas', 'Loja', 'Ambato', 'Ibarra', 'Tumbaco', 'Montañita', 'Cotacachi', 'Guayaquil', 'Quito'];

// prettier-ignore
const WOMEN = new Set(['Sofía', 'Valentina', 'Camila', 'Isabella', 'Paula', 'Lucía', 'Ana', 'Verónica', 'Carolina', 'Mónica', 'Patricia', 'Elena', 'Cristina', 'Natalia', 'Andrea', 'Tatiana', 'Karla', 'Ximena', 'Ana Lucía', 'Renata']);

/**
 * A drawn portrait that goes with the name (supabase/seed/media/agents: the odd ones are drawn as
 * women, the even ones as men), a different one of the eighteen for each agent in turn.
 */
function portrait(id: number, first: string): string {
  const n = ((id - 1) % 18) * 2 + (WOMEN.has(first) ? 1 : 2);
  return `/media/agents/agent-${String(n).padStart(2, '0')}.webp`;
}

export function generateAgents(rand: () => number): AgentRow[] {
  const agents: AgentRow[] = [];
  const created = (i: number) => new Date(Date.UTC(2023, 0, 10) + i * 9 * 86_400_000).toISOString();
  SAMPLE.forEach((s, i) => {
    agents.push({
      ...s,
      id: i + 1,
      email: email(s.first_name ?? '', s.last_name ?? ''),
      picture: `/media/agents/agent-${String(i + 1).padStart(2, '0')}.webp`,
      country_code: 'EC',
      private_notes: 'Commission split 80/20; cap reached in March.',
      created_at: created(i),
    });
  });
  const used = new Set(agents.map((a) => `${a.first_name} ${a.last_name}`));
  const emails = new Set(agents.map((a) => a.email));
  for (let i = 0; agents.length < 46; i++) {
    const first = FIRST[(i * 7 + Math.floor(rand() * 5)) % FIRST.length] as string;
    const last = LAST[(i * 11 + Math.floor(rand() * 7)) % LAST.length] as string;
    if (used.has(`${first} ${last}`) || emails.has(email(first, last))) continue;
    used.add(`${first} ${last}`);
    emails.add(email(first, last));
    const id = agents.length + 1;
    const city = CITIES[i % CITIES.length] as string;
    const r = rand();
    const agent: AgentRow = {
      id,
      first_name: first,
      last_name: last,
      email: email(first, last),
      phone: `09${8 + (i % 2)} ${String(100 + Math.floor(rand() * 900))} ${String(1000 + Math.floor(rand() * 9000))}`,
      picture: portrait(id, first),
      country_code: 'EC',
      ...NO_PROFILE,
      private_notes: r < 0.3 ? 'Probation until onboarding is complete.' : null,
      created_at: created(id),
      home: [city],
    };
    // directories have gaps: no photo, a photo URL with stray spaces, no surname, no phone
    if (id % 9 === 0) agent.picture = null;
    if (id % 13 === 0) agent.picture = `  ${agent.picture ?? ''}  `;
    if (id % 17 === 0) agent.picture = '';
    if (id % 19 === 0) agent.last_name = null;
    if (id % 23 === 0) agent.phone = null;
    if (id === 44) agent.first_name = '  ';
    agents.push(agent);
  }
  // other countries' agents share the table and must never be listed
  const foreign: Array<[string, string, string]> = [
    ['Lucía', 'Quispe', 'PE'],
    ['Andrés', 'Restrepo', 'CO'],
    ['Anna', 'Miller', 'US'],
    ['José', 'Huamán', 'PE'],
  ];
  for (const [first, last, country] of foreign) {
    const id = agents.length + 1;
    agents.push({
      id,
      first_name: first,
      last_name: last,
      email: `${fold(first).toLowerCase()}.${fold(last).toLowerCase()}@exp-${country.toLowerCase()}.example`,
      phone: '+1 555 0100',
      picture: null,
      country_code: country,
      ...NO_PROFILE,
      private_notes: null,
      created_at: created(id),
      home: [],
    });
  }
  return agents;
}
