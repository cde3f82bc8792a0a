-- A feed's unit types' floor plans, made here as a listing's photos (47_projects.sql; docs/import.md
-- "New developments").

alter table internal.project_unit_types
  add column source_media jsonb,
  add column photos_from jsonb;
