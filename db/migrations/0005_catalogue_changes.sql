-- hand-written: the public catalogue (guide search, guide pages) is cached in memory by each server until a
-- change under it commits (app/services/catalogue-cache.server.ts). These triggers tell every listener, after
-- commit, from any code path. pg_notify sends one notice per transaction and channel however many rows change.
CREATE OR REPLACE FUNCTION notify_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A login stamps last_login (and updated_at): that changes nothing a listing shows.
CREATE TRIGGER users_catalogue_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_login' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_login' - 'updated_at'))
  EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER users_catalogue_added AFTER INSERT OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER reviews_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON reviews FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER availability_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON availability_slots FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER orders_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON orders FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER photos_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON photos FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
