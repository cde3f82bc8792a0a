/**
 * The seed's rows that exercise every rule of the spec (docs/product.md): they are ordinary
 * listings otherwise.
 */
import { type AgentRow } from './agents.ts';
import { findPlace, PLACES, type Place } from './places.ts';
import type { ListingRow } from './rows.ts';
import { MEDIA, pointNear, sectorPlace, agentColumns, NO_AGENT } from './draw.ts';

/** Rows that exercise every rule of the spec; they are ordinary listings otherwise. */
export function specialRows(firstId: number, agents: AgentRow[], rand: () => number, now: number): ListingRow[] {
  const quito = PLACES[0] as Place;
  let id = firstId;
  const base = (over: Partial<ListingRow>): ListingRow => {
    const agent = agents[(id * 7) % agents.length] as AgentRow;
    // near the sector the row names, as the ordinary rows are
    const home = findPlace(over.city) ?? quito;
    const [lat, lng] = pointNear(
      sectorPlace(home, over.city === undefined ? 'Iñaquito' : (home.neighbourhoods[0] ?? '')),
      rand,
    );
    return {
      id: id++,
      title: 'Departamento de 2 dormitorios en La Carolina',
      address: 'Av. Naciones Unidas E5-120, Iñaquito',
      price: 145000,
      bedrooms: 2,
      bathrooms: 2,
      square_feet: 92,
      property_type: 'apartment',
      city: 'Quito',
      state: 'Pichincha',
      images: [`${MEDIA}/apartment-2.webp`, `${MEDIA}/living-3.webp`],
      geo_lat: lat.toFixed(6),
      geo_lon: lng.toFixed(6),
      description: 'Departamento luminoso a dos cuadras del Parque La Carolina.',
      created_at: new Date(now - Math.floor(rand() * 600) * 86_400_000).toISOString(),
      status: '1',
      country_code: 'EC',
      ...agentColumns(agent),
      // the default address is in Iñaquito; another city's row is in its first sector, an unknown place in none
      sector: over.city === undefined ? 'Iñaquito' : (findPlace(over.city)?.neighbourhoods[0] ?? null),
      features: [],
      year_built: null,
      lot_size: null,
      ...over,
    };
  };
  const rows: ListingRow[] = [
    // coordinates: missing, empty, not numeric, numeric strings with spaces, out of range
    base({
      title: 'Casa en Cumbayá sin coordenadas',
      city: 'Cumbayá',
      property_type: 'house',
      bedrooms: 4,
      bathrooms: 3.5,
      square_feet: 280,
      price: 385000,
      geo_lat: null,
      geo_lon: null,
    }),
    base({
      title: 'Departamento en Guayaquil con coordenadas vacías',
      city: 'Guayaquil',
      state: 'Guayas',
      geo_lat: '',
      geo_lon: '',
    }),
    base({
      title: 'Terreno en Loja con coordenadas por confirmar',
      city: 'Loja',
      state: 'Loja',
      property_type: 'land',
      bedrooms: 0,
      bathrooms: 0,
      square_feet: 900,
      price: 42000,
      geo_lat: 'N/A',
      geo_lon: 'pendiente',
    }),
    base({
      title: 'Casa en un pueblo sin ubicación conocida',
      city: 'Pueblo Nuevo',
      state: 'Manabí',
      property_type: 'house',
      geo_lat: 'abc',
      geo_lon: '-80.1',
    }),
    base({
      title: 'Suite con coordenadas como texto',
      property_type: 'apartment',
      bedrooms: 1,
      bathrooms: 1,
      square_feet: 48,
      price: 79000,
      geo_lat: ' -0.176200 ',
      geo_lon: '-78.480100',
    }),
    base({
      title: 'Oficina con coordenadas fuera de rango',
      property_type: 'office',
      bedrooms: 0,
      square_feet: 120,
      price: 190000,
      geo_lat: '123.45',
      geo_lon: '-78.48',
    }),
    // missing fields: the spec's defaults apply (title, price 0, Residential)
    base({ title: null, description: null }),
    base({
      price: null,
      title: 'Casa en Tumbaco, precio a consultar',
      city: 'Tumbaco',
      property_type: 'house',
      bedrooms: 3,
      bathrooms: 2.5,
      square_feet: 210,
    }),
    base({
      property_type: null,
      title: 'Propiedad en Ibarra',
      city: 'Ibarra',
      state: 'Imbabura',
      bedrooms: null,
      bathrooms: null,
      square_feet: null,
    }),
    base({ city: null, state: 'Pichincha', title: 'Departamento sin ciudad registrada' }),
    base({ city: null, state: null, address: null, title: 'Listado sin dirección' }),
    // types outside the six: shown as given, title-cased in the filter
    base({
      property_type: 'quinta',
      title: 'Quinta con huerto en Cotacachi',
      city: 'Cotacachi',
      state: 'Imbabura',
      bedrooms: 4,
      bathrooms: 3,
      square_feet: 5200,
      price: 265000,
    }),
    base({
      property_type: 'hotel_boutique',
      title: 'Hotel boutique de 9 habitaciones en Montañita',
      city: 'Montañita',
      state: 'Santa Elena',
      bedrooms: 9,
      bathrooms: 10,
      square_feet: 640,
      price: 720000,
    }),
    // text is data: markup must render as text
    base({
      title: 'Departamento <b>amoblado</b> & listo <img src=x onerror="alert(1)">',
      description: '<script>alert("xss")</script> Vista al parque, 2 parqueaderos & bodega.',
    }),
    // images in every shape, including broken, unsafe and empty
    base({ title: 'Casa con imagen rota', images: [`${MEDIA}/missing-photo.webp`, `${MEDIA}/house-3.webp`] }),
    base({ title: 'Casa con enlace de imagen inseguro', images: ['javascript:alert(1)', `${MEDIA}/house-4.webp`] }),
    base({ title: 'Departamento sin fotos', images: [] }),
    base({ title: 'Departamento sin campo de fotos', images: null }),
    base({
      title: 'Departamento con portada marcada al final',
      images: [
        { url: `${MEDIA}/living-1.webp` },
        { src: `${MEDIA}/kitchen-2.webp` },
        { url: `${MEDIA}/apartment-5.webp`, is_front_cover: true },
      ],
    }),
    // agent fields partly empty: name only, e-mail only, phone only, nothing
    base({ title: 'Casa con agente sin contacto', agent_email: null, agent_phone: null, agent_picture: null }),
    base({
      title: 'Departamento con solo el correo del agente',
      agent_first_name: null,
      agent_last_name: null,
      agent_phone: null,
    }),
    base({
      title: 'Departamento con solo el teléfono del agente',
      agent_first_name: null,
      agent_last_name: null,
      agent_email: null,
      agent_phone: '02 245 6789',
    }),
    base({ title: 'Departamento sin datos de agente', ...NO_AGENT }),
  ];
  // rows that must never show: inactive listings and other countries' listings
  const foreign: Array<[string, string, string, number, number]> = [
    ['PE', 'Lima', 'Lima', -12.0464, -77.0428],
    ['CO', 'Bogotá', 'Cundinamarca', 4.711, -74.0721],
    ['US', 'Miami', 'Florida', 25.7617, -80.1918],
  ];
  for (let i = 0; i < 45; i++) {
    const [country, city, state, lat, lng] = foreign[i % foreign.length] as [string, string, string, number, number];
    rows.push(
      base({
        country_code: country,
        city,
        state,
        title: `Apartment in ${city} (${country})`,
        geo_lat: (lat + rand() * 0.05).toFixed(6),
        geo_lon: (lng + rand() * 0.05).toFixed(6),
        agent_id: null,
      }),
    );
  }
  for (let i = 0; i < 12; i++)
    rows.push(
      base({
        status: i % 2 ? '0' : '2',
        title: `Casa vendida en Quito ${i + 1}`,
        property_type: 'house',
        price: 250000 + i * 1000,
      }),
    );
  return rows;
}
