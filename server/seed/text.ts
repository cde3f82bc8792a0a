/**
 * Titles and descriptions that read like Ecuadorian listings: mostly Spanish, in English where
 * foreign buyers are common (Cuenca, Cotacachi, the coast), as agents there write them.
 */
import type { PropertyType } from './places.ts';

export type Pick = <T>(items: readonly T[]) => T;

export interface ListingFacts {
  type: PropertyType;
  city: string;
  neighbourhood: string;
  bedrooms: number;
  bathrooms: number;
  area: number;
  region: 'sierra' | 'costa';
  english: boolean;
}

const fmtArea = (n: number, english: boolean) =>
  english ? n.toLocaleString('en-US') : n.toLocaleString('es-EC').replace(/,/g, '.');

const ES = {
  apartment: [
    'Departamento de {beds} dormitorios en {hood}',
    'Moderno departamento con balcón en {hood}, {city}',
    'Suite amoblada cerca de {hood}',
    'Departamento con vista panorámica en {hood}',
    'Penthouse de {beds} dormitorios con terraza en {hood}',
    'Departamento para estrenar en {hood}, {city}',
    'Amplio departamento de {area} m² en {hood}',
  ],
  house: [
    'Casa de {beds} dormitorios en conjunto privado, {hood}',
    'Casa moderna con jardín en {hood}, {city}',
    'Hermosa casa esquinera en {hood}',
    'Casa de dos plantas con patio en {hood}',
    'Casa con piscina y amplio jardín en {hood}',
    'Residencia de {area} m² en {hood}, {city}',
    'Casa familiar a estrenar en {hood}',
  ],
  land: [
    'Terreno plano de {area} m² en {hood}',
    'Lote urbanizado en {hood}, {city}',
    'Terreno con vista en {hood}',
    'Lote esquinero ideal para construir en {hood}',
    'Terreno de {area} m² con todos los servicios en {city}',
  ],
  office: [
    'Oficina en edificio corporativo, {hood}',
    'Oficina de {area} m² con parqueaderos en {hood}',
    'Oficina amoblada lista para operar en {hood}, {city}',
    'Consultorio u oficina en {hood}',
  ],
  business_premises: [
    'Local comercial a pie de calle en {hood}',
    'Local de {area} m² en zona de alto tráfico, {hood}',
    'Local comercial esquinero en {hood}, {city}',
    'Local en centro comercial de {hood}',
  ],
  commercial_building: [
    'Edificio comercial de {area} m² en {hood}',
    'Edificio de oficinas y locales en {hood}, {city}',
    'Edificio rentable con locales en planta baja, {hood}',
  ],
} satisfies Record<PropertyType, string[]>;

const EN = {
  apartment: [
    '{beds}-bedroom condo in {hood}',
    'Ocean-view condo in {hood}, {city}',
    'Furnished apartment near {hood}',
    'Bright {beds}-bedroom apartment with balcony in {hood}',
    'Penthouse with rooftop terrace in {hood}',
  ],
  house: [
    '{beds}-bedroom home with garden in {hood}',
    'Colonial-style house in {hood}, {city}',
    'Gated-community home in {hood}',
    'Family home with mountain views in {hood}',
    'Spacious {area} m² home in {hood}',
  ],
  land: ['{area} m² building lot in {hood}', 'Lot with views in {hood}, {city}', 'Flat lot with utilities in {hood}'],
  office: ['Office suite in {hood}, {city}', 'Turn-key office of {area} m² in {hood}'],
  business_premises: ['Street-front retail space in {hood}', 'Restaurant-ready commercial space in {hood}, {city}'],
  commercial_building: ['Income-producing commercial building in {hood}', 'Mixed-use building of {area} m² in {city}'],
} satisfies Record<PropertyType, string[]>;

const ES_FEATURES: Record<PropertyType, string[]> = {
  apartment: [
    'cocina abierta con mesón de cuarzo',
    'balcón con vista a la ciudad',
    'gimnasio y área BBQ en la terraza',
    'guardianía 24/7',
    '{parking} parqueaderos cubiertos y bodega',
    'ascensor y generador eléctrico',
    'piso flotante y amplios ventanales',
    'sala comunal y áreas verdes',
    'calentador solar',
  ],
  house: [
    'jardín privado con árboles frutales',
    'sala con chimenea',
    'cocina tipo isla y cuarto de servicio',
    '{parking} parqueaderos',
    'estudio con luz natural',
    'terraza con BBQ',
    'piscina temperada',
    'seguridad privada en el conjunto',
    'cisterna y paneles solares',
  ],
  land: [
    'topografía plana',
    'acceso por calle adoquinada',
    'servicios básicos en el lindero',
    'escrituras al día',
    'zonificación residencial',
    'ideal para proyecto inmobiliario',
    'vista despejada',
  ],
  office: [
    'recepción compartida',
    '{parking} parqueaderos para clientes',
    'sala de reuniones',
    'cableado estructurado',
    'ascensores de alta velocidad',
    'aire acondicionado central',
  ],
  business_premises: [
    'vitrina a la calle principal',
    'baño y bodega',
    'alto flujo peatonal',
    'permiso de funcionamiento vigente',
    'parqueadero para clientes',
  ],
  commercial_building: [
    'locales arrendados con contratos vigentes',
    'ascensor y parqueaderos',
    'terraza aprovechable',
    'estructura sismorresistente',
    'excelente rentabilidad',
  ],
};

const EN_FEATURES: Record<PropertyType, string[]> = {
  apartment: [
    'open kitchen with quartz counters',
    'balcony with city or ocean views',
    'gym and rooftop BBQ area',
    '24/7 security',
    '{parking} covered parking spaces and storage',
    'elevator and backup generator',
    'walk to cafés and markets',
  ],
  house: [
    'private garden with fruit trees',
    'living room with fireplace',
    'island kitchen',
    '{parking} parking spaces',
    'home office with natural light',
    'covered terrace for BBQ',
    'heated pool',
    'gated community with guards',
  ],
  land: [
    'flat topography',
    'paved access road',
    'water and power at the property line',
    'clear title',
    'zoned residential',
    'unobstructed views',
  ],
  office: [
    'shared reception',
    '{parking} client parking spaces',
    'meeting room',
    'structured cabling',
    'central air conditioning',
  ],
  business_premises: [
    'street-front display window',
    'restroom and storage',
    'heavy foot traffic',
    'business permit in place',
  ],
  commercial_building: [
    'leased units with current contracts',
    'elevator and parking',
    'usable rooftop',
    'earthquake-resistant structure',
  ],
};

const ES_OPENERS = [
  'Excelente oportunidad en {hood}, uno de los sectores más buscados de {city}.',
  'Ubicación privilegiada en {hood}, cerca del parque, de centros comerciales, colegios y transporte.',
  'Propiedad en impecable estado en el sector de {hood}.',
  'Se vende en {hood}, {city}, con acceso rápido a las principales avenidas.',
];
const EN_OPENERS = [
  'A great opportunity in {hood}, one of the most sought-after areas of {city}.',
  'Walkable location in {hood}, close to shops, restaurants and transport.',
  'Well-kept property in {hood}, {city}, ready to move in.',
];
const ES_CLOSERS = [
  'Agende su visita hoy.',
  'Precio negociable para pago de contado.',
  'Acepta crédito hipotecario BIESS.',
  'Documentos en regla para escriturar de inmediato.',
];
const EN_CLOSERS = [
  'Schedule a viewing today.',
  'Priced to sell; cash offers considered.',
  'Clear title, ready for closing.',
  'Residency-visa friendly investment.',
];
const CLIMATE_ES = { sierra: 'Clima primaveral todo el año.', costa: 'A pocos minutos de la playa.' };
const CLIMATE_EN = { sierra: 'Spring-like weather all year round.', costa: 'Minutes from the beach.' };

function fill(template: string, f: ListingFacts, parking: number): string {
  const values: Record<string, string> = {
    beds: String(f.bedrooms),
    hood: f.neighbourhood,
    city: f.city,
    area: fmtArea(f.area, f.english),
    parking: String(parking),
  };
  return template.replace(/\{(beds|hood|city|area|parking)\}/g, (_m, name: string) => values[name] as string);
}

export function titleFor(f: ListingFacts, pick: Pick): string {
  const list = (f.english ? EN : ES)[f.type];
  const usable = f.bedrooms > 0 ? list : list.filter((t) => !t.includes('{beds}'));
  return fill(pick(usable.length ? usable : list), f, 2);
}

export function descriptionFor(f: ListingFacts, pick: Pick, rand: () => number): string {
  const features = [...(f.english ? EN_FEATURES : ES_FEATURES)[f.type]];
  const chosen: string[] = [];
  const count = 2 + Math.floor(rand() * 3);
  while (chosen.length < count && features.length)
    chosen.push(features.splice(Math.floor(rand() * features.length), 1)[0] as string);
  const parking = 1 + Math.floor(rand() * 3);
  const opener = fill(pick(f.english ? EN_OPENERS : ES_OPENERS), f, parking);
  const size = f.english
    ? f.type === 'land'
      ? `Lot of ${fmtArea(f.area, true)} m².`
      : `${fmtArea(f.area, true)} m² of living space${f.bedrooms ? ` with ${f.bedrooms} bedrooms and ${f.bathrooms} bathrooms` : ''}.`
    : f.type === 'land'
      ? `Terreno de ${fmtArea(f.area, false)} m².`
      : `${fmtArea(f.area, false)} m² de construcción${f.bedrooms ? `, ${f.bedrooms} dormitorios y ${String(f.bathrooms).replace('.', ',')} baños` : ''}.`;
  const list = chosen.map((c) => fill(c, f, parking));
  const featuresText = f.english
    ? `Features ${list.slice(0, -1).join(', ')}${list.length > 1 ? ' and ' : ''}${list.at(-1)}.`
    : `Cuenta con ${list.slice(0, -1).join(', ')}${list.length > 1 ? ' y ' : ''}${list.at(-1)}.`;
  // a third of the coast's listings see the sea (from the size, so the random stream is unchanged)
  const climate =
    f.region === 'costa' && Math.round(f.area) % 3 === 0
      ? f.english
        ? 'Ocean views, minutes from the beach.'
        : 'Con vista al mar, a pocos minutos de la playa.'
      : (f.english ? CLIMATE_EN : CLIMATE_ES)[f.region];
  return [opener, size, featuresText, climate, pick(f.english ? EN_CLOSERS : ES_CLOSERS)].join(' ');
}
