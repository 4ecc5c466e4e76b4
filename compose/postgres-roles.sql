-- Run once by the postgres image on an empty data directory (compose.yaml): the two roles of
-- docs/operations.md "Database roles". The owner migrates; the gateway serves with rows only,
-- granted by the migrate job. Local passwords: change them for anything but a laptop.
CREATE ROLE gateway_owner LOGIN PASSWORD 'gateway_owner';
CREATE ROLE gateway LOGIN PASSWORD 'gateway';
CREATE DATABASE gateway OWNER gateway_owner;
