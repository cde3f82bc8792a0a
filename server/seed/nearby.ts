/**
 * The seed's places of interest (docs/projects.md "What is near"): well-known schools,
 * universities, hospitals, shopping centres, supermarkets, parks and transport of Quito, Cumbayá,
 * Guayaquil, Samborondón, the Vía a la Costa and Cuenca, where the seed's new developments are;
 * their positions to within a block or two. A site in production loads its own list from an
 * OpenStreetMap extract (`npm run import -- nearby`, docs/import.md "What is near").
 */
import type { NearbyKind } from '../../core/protocol/nearby.ts';
import type { PointOfInterestRow } from '../import/nearby.ts';

// prettier-ignore
const PLACES: Array<[NearbyKind, string, number, number]> = [
  // Quito, the north: La Carolina, Quito Tenis, El Bosque
  ['school', 'Unidad Educativa Sebastián de Benalcázar', -0.1861, -78.477],
  ['school', 'Colegio San Gabriel', -0.193, -78.499],
  ['school', 'Unidad Educativa Cardenal Spellman', -0.153, -78.477],
  ['university', 'Pontificia Universidad Católica del Ecuador', -0.2096, -78.4916],
  ['university', 'Escuela Politécnica Nacional', -0.2104, -78.489],
  ['university', 'Universidad UTE, campus Occidental', -0.1642, -78.4999],
  ['university', 'Universidad de las Américas, UDLA Park', -0.164, -78.469],
  ['hospital', 'Hospital Metropolitano', -0.1851, -78.501],
  ['hospital', 'Hospital Vozandes', -0.1745, -78.4859],
  ['hospital', 'Hospital Carlos Andrade Marín', -0.2096, -78.4997],
  ['shopping', 'Quicentro Shopping', -0.1762, -78.48],
  ['shopping', 'Centro Comercial Iñaquito (CCI)', -0.1765, -78.4857],
  ['shopping', 'Mall El Jardín', -0.1893, -78.4843],
  ['shopping', 'Centro Comercial El Bosque', -0.1582, -78.4962],
  ['supermarket', 'Megamaxi 6 de Diciembre', -0.1797, -78.4772],
  ['supermarket', 'Supermaxi El Bosque', -0.1585, -78.4957],
  ['park', 'Parque La Carolina', -0.1822, -78.4846],
  ['park', 'Parque Metropolitano Guangüiltagua', -0.177, -78.462],
  ['park', 'Parque Bicentenario', -0.1415, -78.4885],
  ['park', 'Parque Arqueológico Rumipamba', -0.1735, -78.5015],
  ['transport', 'Metro de Quito: La Carolina', -0.1862, -78.4855],
  ['transport', 'Metro de Quito: Iñaquito', -0.1762, -78.487],
  ['transport', 'Metro de Quito: Jipijapa', -0.1663, -78.484],
  ['transport', 'Metro de Quito: El Labrador', -0.15, -78.488],
  // Cumbayá
  ['school', 'Colegio Menor San Francisco de Quito', -0.2108, -78.4278],
  ['university', 'Universidad San Francisco de Quito', -0.1967, -78.4351],
  ['hospital', 'Hospital de los Valles', -0.2087, -78.424],
  ['shopping', 'Scala Shopping', -0.205, -78.4303],
  ['shopping', 'Paseo San Francisco', -0.1977, -78.4342],
  ['supermarket', 'Supermaxi Cumbayá', -0.2016, -78.4318],
  ['park', 'Parque Central de Cumbayá', -0.2003, -78.4305],
  ['park', 'Ruta del Chaquiñán', -0.2052, -78.4264],
  // Guayaquil and Samborondón
  ['school', 'Unidad Educativa Nuevo Mundo', -2.1419, -79.8707],
  ['school', 'Liceo Panamericano', -2.1432, -79.8656],
  ['university', 'Universidad Espíritu Santo (UEES)', -2.1462, -79.8682],
  ['hospital', 'Hospital Clínica Kennedy Samborondón', -2.1476, -79.8667],
  ['hospital', 'Omni Hospital', -2.1513, -79.896],
  ['shopping', 'Plaza Lagos Town Center', -2.1174, -79.8642],
  ['shopping', 'Village Plaza', -2.142, -79.8679],
  ['shopping', 'Riocentro Entre Ríos', -2.156, -79.8694],
  ['shopping', 'Mall del Sol', -2.1551, -79.8915],
  ['supermarket', 'Supermaxi Samborondón', -2.1397, -79.8692],
  ['park', 'Parque Histórico Guayaquil', -2.1556, -79.8724],
  ['transport', 'Aeropuerto José Joaquín de Olmedo', -2.1574, -79.8837],
  ['transport', 'Terminal Terrestre de Guayaquil', -2.1402, -79.8883],
  // the Vía a la Costa
  ['school', 'Unidad Educativa Alemán Humboldt', -2.1832, -79.994],
  ['supermarket', 'Supermaxi Vía a la Costa', -2.188, -80.0115],
  ['park', 'Bosque Protector Cerro Blanco', -2.1779, -80.0225],
  // Cuenca: El Vergel and Challuabamba
  ['school', 'Unidad Educativa La Asunción', -2.904, -79.0065],
  ['school', 'Unidad Educativa Santana', -2.8765, -78.94],
  ['university', 'Universidad de Cuenca', -2.9003, -79.0107],
  ['university', 'Universidad del Azuay', -2.9186, -79.0001],
  ['hospital', 'Hospital Monte Sinaí', -2.9033, -79.0145],
  ['shopping', 'Mall del Río', -2.9186, -79.0087],
  ['supermarket', 'Coral Hipermercados Monay', -2.899, -78.977],
  ['park', 'Parque de la Madre', -2.9067, -79.0045],
  ['park', 'Parque Calderón', -2.8972, -79.0045],
  ['park', 'Parque El Paraíso', -2.908, -78.9862],
  ['transport', 'Aeropuerto Mariscal Lamar', -2.8895, -78.9845],
  ['transport', 'Terminal Terrestre de Cuenca', -2.8892, -78.9902],
];

/** The seed's places of interest, each keyed by its kind and name under the source 'seed'. */
export function seedPointsOfInterest(): PointOfInterestRow[] {
  return PLACES.map(([kind, name, lat, lng]) => ({
    kind,
    name,
    position: `(${lng},${lat})`,
    source: 'seed',
    source_key: `${kind}:${name}`,
  }));
}
