/**
 * Where the seed listings are: real places of Ecuador with a centre and a radius that keeps random
 * points on land, the neighbourhoods and streets that appear in addresses, and how prices and the
 * mix of property types differ from place to place.
 */
import { fold } from '../../core/protocol/text.ts';

import type { KnownType } from '../../core/protocol/listing.ts';

/** The types the seed's sales are drawn from (suites and quintas come with the rentals, rentalsFor). */
export type PropertyType = Exclude<KnownType, 'suite' | 'quinta'>;

export interface Place {
  city: string;
  state: string;
  lat: number;
  lng: number;
  /** km around the centre where listings are placed */
  radiusKm: number;
  /** how many of the listings are here (relative weight) */
  weight: number;
  /** price level relative to Quito's mid-range (1.0) */
  priceFactor: number;
  region: 'sierra' | 'costa';
  neighbourhoods: string[];
  streets: string[];
  /** relative weights of the property types here */
  mix: Record<PropertyType, number>;
  /** foreign buyers are common here: some listings are written in English */
  expat: number;
}

const urban: Record<PropertyType, number> = {
  apartment: 36,
  house: 30,
  land: 10,
  office: 10,
  business_premises: 8,
  commercial_building: 6,
};
const suburban: Record<PropertyType, number> = {
  apartment: 22,
  house: 48,
  land: 20,
  office: 3,
  business_premises: 5,
  commercial_building: 2,
};
const beach: Record<PropertyType, number> = {
  apartment: 40,
  house: 28,
  land: 22,
  office: 1,
  business_premises: 7,
  commercial_building: 2,
};
const town: Record<PropertyType, number> = {
  apartment: 20,
  house: 45,
  land: 22,
  office: 3,
  business_premises: 7,
  commercial_building: 3,
};

// prettier-ignore
export const PLACES: Place[] = [
  {
    city: 'Quito', state: 'Pichincha', lat: -0.1807, lng: -78.4678, radiusKm: 6.5, weight: 21, priceFactor: 1.0, region: 'sierra', expat: 0.08, mix: urban,
    neighbourhoods: ['La Carolina', 'González Suárez', 'Quito Tenis', 'Bellavista', 'La Floresta', 'Guápulo', 'El Batán', 'Iñaquito', 'La Mariscal', 'Centro Histórico', 'Monteserrín', 'El Bosque', 'Carcelén', 'La Pradera', 'Benalcázar'],
    streets: ['Av. República de El Salvador', 'Av. 6 de Diciembre', 'Av. Eloy Alfaro', 'Av. Naciones Unidas', 'Av. González Suárez', 'Av. De los Shyris', 'Calle Whymper', 'Av. Amazonas', 'Av. Portugal', 'Calle Isla Floreana', 'Av. República', 'Calle Bosmediano', 'Av. Coruña', 'Calle Moscú', 'Av. Orellana'],
  },
  {
    city: 'Cumbayá', state: 'Pichincha', lat: -0.2005, lng: -78.4300, radiusKm: 2.2, weight: 7, priceFactor: 1.35, region: 'sierra', expat: 0.18, mix: suburban,
    neighbourhoods: ['Jardines del Este', 'Santa Inés', 'San Juan Alto', 'La Primavera', 'Miravalle', 'Auqui de Monjas', 'El Bosque de Cumbayá'],
    streets: ['Av. Interoceánica', 'Calle Francisco de Orellana', 'Vía Lumbisí', 'Calle Pampite', 'Av. Pampite', 'Calle Juan Montalvo', 'Calle Siena', 'Calle Chimborazo'],
  },
  {
    city: 'Tumbaco', state: 'Pichincha', lat: -0.2120, lng: -78.3990, radiusKm: 2.6, weight: 5, priceFactor: 1.05, region: 'sierra', expat: 0.12, mix: suburban,
    neighbourhoods: ['La Morita', 'Collaquí', 'El Arenal', 'Tola Grande', 'San Patricio', 'Rumihuaico'],
    streets: ['Av. Interoceánica', 'Calle Gonzalo Pizarro', 'Calle Rumiñahui', 'Calle Los Guabos', 'Calle Juan Montalvo', 'Ruta Viva'],
  },
  {
    city: 'Guayaquil', state: 'Guayas', lat: -2.1700, lng: -79.9080, radiusKm: 5.5, weight: 15, priceFactor: 0.95, region: 'costa', expat: 0.05, mix: urban,
    neighbourhoods: ['Urdesa Central', 'Kennedy Norte', 'Los Ceibos', 'Puerto Santa Ana', 'Centro', 'Alborada', 'Garzota', 'Miraflores', 'Vía a la Costa', 'Bellavista', 'Sauces'],
    streets: ['Av. Víctor Emilio Estrada', 'Av. Francisco de Orellana', 'Av. 9 de Octubre', 'Av. Carlos Julio Arosemena', 'Calle Circunvalación Sur', 'Av. Juan Tanca Marengo', 'Av. Las Monjas', 'Av. del Bombero', 'Calle Ficus', 'Av. Miguel H. Alcívar'],
  },
  {
    city: 'Samborondón', state: 'Guayas', lat: -2.1350, lng: -79.8760, radiusKm: 2.0, weight: 7, priceFactor: 1.3, region: 'costa', expat: 0.06, mix: suburban,
    neighbourhoods: ['La Puntilla', 'Ciudad Celeste', 'Entre Ríos', 'La Costa', 'Plaza Lagos', 'Isla Mocolí'],
    streets: ['Av. Samborondón', 'Km 2.5 Vía Samborondón', 'Km 5 Vía Samborondón', 'Km 10 Vía Samborondón', 'Av. León Febres-Cordero', 'Calle Principal de Entre Ríos'],
  },
  {
    city: 'Cuenca', state: 'Azuay', lat: -2.9001, lng: -79.0059, radiusKm: 3.8, weight: 12, priceFactor: 0.85, region: 'sierra', expat: 0.35, mix: urban,
    neighbourhoods: ['El Centro', 'El Vergel', 'Puertas del Sol', 'Gringolandia', 'Totoracocha', 'Yanuncay', 'Challuabamba', 'Misicata', 'San Sebastián', 'Ordóñez Lasso'],
    streets: ['Av. Solano', 'Calle Larga', 'Av. 12 de Abril', 'Av. Ordóñez Lasso', 'Calle Gran Colombia', 'Av. Primero de Mayo', 'Calle Bolívar', 'Av. Remigio Crespo', 'Av. Don Bosco', 'Calle Presidente Córdova'],
  },
  {
    city: 'Manta', state: 'Manabí', lat: -0.9700, lng: -80.7120, radiusKm: 2.4, weight: 6, priceFactor: 0.9, region: 'costa', expat: 0.3, mix: beach,
    neighbourhoods: ['Barbasquillo', 'Umiña', 'El Murciélago', 'Manta 2000', 'Santa Marianita', 'Los Esteros'],
    streets: ['Av. Flavio Reyes', 'Malecón de Manta', 'Av. 24 de Mayo', 'Calle 13', 'Av. 4 de Noviembre', 'Vía Barbasquillo'],
  },
  {
    city: 'Salinas', state: 'Santa Elena', lat: -2.2160, lng: -80.9480, radiusKm: 1.4, weight: 5, priceFactor: 1.0, region: 'costa', expat: 0.3, mix: beach,
    neighbourhoods: ['Chipipe', 'San Lorenzo', 'Costa de Oro', 'Punta Carnero', 'Mar Bravo'],
    streets: ['Malecón de Salinas', 'Av. San Lorenzo', 'Calle 27', 'Av. Carlos Espinoza Larrea', 'Calle Guayas y Quil'],
  },
  {
    city: 'Loja', state: 'Loja', lat: -3.9931, lng: -79.2042, radiusKm: 2.6, weight: 4, priceFactor: 0.7, region: 'sierra', expat: 0.06, mix: town,
    neighbourhoods: ['Centro', 'La Tebaida', 'El Valle', 'Zamora Huayco', 'San Cayetano', 'Punzara'],
    streets: ['Av. Universitaria', 'Calle Bolívar', 'Av. Manuel Agustín Aguirre', 'Av. Orillas del Zamora', 'Calle Sucre', 'Av. Pío Jaramillo'],
  },
  {
    city: 'Ambato', state: 'Tungurahua', lat: -1.2491, lng: -78.6168, radiusKm: 2.8, weight: 4, priceFactor: 0.72, region: 'sierra', expat: 0.03, mix: town,
    neighbourhoods: ['Ficoa', 'Atocha', 'Huachi Chico', 'Miraflores', 'Ingahurco', 'Izamba'],
    streets: ['Av. Los Guaytambos', 'Av. Cevallos', 'Av. Rodrigo Pachano', 'Calle Montalvo', 'Av. Atahualpa', 'Av. Bolivariana'],
  },
  {
    city: 'Ibarra', state: 'Imbabura', lat: 0.3517, lng: -78.1223, radiusKm: 2.6, weight: 4, priceFactor: 0.7, region: 'sierra', expat: 0.08, mix: town,
    neighbourhoods: ['Centro', 'Yacucalle', 'La Victoria', 'Los Ceibos', 'Yahuarcocha', 'El Olivo'],
    streets: ['Av. Mariano Acosta', 'Calle Bolívar', 'Av. Teodoro Gómez', 'Av. El Retorno', 'Calle Sucre', 'Av. Camilo Ponce'],
  },
  {
    city: 'Montañita', state: 'Santa Elena', lat: -1.8270, lng: -80.7470, radiusKm: 0.7, weight: 3, priceFactor: 0.85, region: 'costa', expat: 0.5, mix: beach,
    neighbourhoods: ['La Punta', 'Centro', 'Tiburón', 'Baja Montañita'],
    streets: ['Calle Principal', 'Calle 10 de Agosto', 'Ruta del Spondylus', 'Calle del Surf'],
  },
  {
    city: 'Olón', state: 'Santa Elena', lat: -1.7980, lng: -80.7530, radiusKm: 0.7, weight: 2, priceFactor: 0.9, region: 'costa', expat: 0.5, mix: beach,
    neighbourhoods: ['Centro', 'Curía', 'San José', 'Bosque de Olón'],
    streets: ['Ruta del Spondylus', 'Calle de la Playa', 'Calle Principal', 'Calle del Santuario'],
  },
  {
    city: 'Cotacachi', state: 'Imbabura', lat: 0.3017, lng: -78.2645, radiusKm: 1.3, weight: 2, priceFactor: 0.7, region: 'sierra', expat: 0.55, mix: town,
    neighbourhoods: ['Centro', 'San Francisco', 'Quiroga', 'El Ejido'],
    streets: ['Calle 10 de Agosto', 'Av. 24 de Mayo', 'Calle García Moreno', 'Calle Pedro Moncayo'],
  },
  {
    city: 'Vilcabamba', state: 'Loja', lat: -4.2611, lng: -79.2223, radiusKm: 1.2, weight: 1.5, priceFactor: 0.6, region: 'sierra', expat: 0.6, mix: town,
    neighbourhoods: ['Centro', 'Yamburara', 'San Pedro', 'Cucanamá'],
    streets: ['Calle Diego Vaca de Vega', 'Av. de la Eterna Juventud', 'Calle Bolívar', 'Vía a Yamburara'],
  },
  {
    city: 'Bahía de Caráquez', state: 'Manabí', lat: -0.6050, lng: -80.4200, radiusKm: 0.9, weight: 1.5, priceFactor: 0.8, region: 'costa', expat: 0.35, mix: beach,
    neighbourhoods: ['Malecón', 'Bellavista', 'Centro', 'Astillero'],
    streets: ['Av. Virgilio Ratti', 'Malecón Alberto Santos', 'Calle Bolívar', 'Av. Sixto Durán Ballén'],
  },
];

/** Price per m² in USD at Quito mid-range (priceFactor 1.0), as [low, high]. */
export const PRICE_PER_M2: Record<PropertyType, [number, number]> = {
  apartment: [1050, 2100],
  house: [750, 1750],
  land: [40, 230],
  office: [1100, 2000],
  business_premises: [900, 2400],
  commercial_building: [650, 1500],
};

/** Area in m² as [low, high]. */
export const AREA: Record<PropertyType, [number, number]> = {
  apartment: [42, 240],
  house: [95, 620],
  land: [200, 8000],
  office: [38, 420],
  business_premises: [28, 320],
  commercial_building: [380, 3600],
};

/** Where a listing with unusable coordinates is approximated (kept in sync with the widget). */
export function findPlace(city: string | null | undefined): Place | undefined {
  const folded = fold(city ?? '').trim();
  return PLACES.find((p) => fold(p.city) === folded);
}
