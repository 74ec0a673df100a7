# The production image, in three stages:
#   build: every dependency (TypeScript, Vite, ...) and the build of all workspaces;
#   deps:  the production dependencies of the server only (backend and the workspaces it imports);
#   final: those dependencies, the compiled server and the built site, run as the unprivileged `node` user.
# Nothing of the build stage but its output reaches the final image: no dev tools, no sources, no caches.

# ---- build ----------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY projections/package.json projections/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
# tsc -b backend (with contracts and projections), then the frontend (Vite build and prerendered pages).
RUN npm run build

# ---- production dependencies ----------------------------------------------------------------------------
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY projections/package.json projections/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
# Only what `node backend/dist/main.js` loads: the backend's dependencies and those of the workspaces it
# uses (@ppr/contracts, @ppr/projections, linked from node_modules/@ppr). The frontend's packages are
# compiled into its static files, and devDependencies are left out. argon2 ships a prebuilt glibc binary,
# so no compiler is needed here.
RUN npm ci --omit=dev --no-audit --no-fund --workspace backend --workspace contracts --workspace projections \
  && npm cache clean --force

# ---- final ----------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=deps --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/contracts/package.json ./contracts/package.json
COPY --from=build --chown=root:root /app/contracts/dist ./contracts/dist
COPY --from=build --chown=root:root /app/projections/package.json ./projections/package.json
COPY --from=build --chown=root:root /app/projections/dist ./projections/dist
COPY --from=build --chown=root:root /app/backend/package.json ./backend/package.json
COPY --from=build --chown=root:root /app/backend/dist ./backend/dist
# The email templates: Handlebars files, which tsc does not copy into dist; backend/dist/mail/templates.js reads
# them from their source folder (backend/src/mail/templates), as it does in a checkout.
COPY --from=build --chown=root:root /app/backend/src/mail/templates ./backend/src/mail/templates
# The site the backend serves (SpaModule reads frontend/dist beside the backend).
COPY --from=build --chown=root:root /app/frontend/dist ./frontend/dist
# The code belongs to root and cannot be changed by the process; the only writable place is the embedded
# database's folder (used when DATABASE_URL is not set).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV DATA_DIR=/app/data
VOLUME ["/app/data"]
EXPOSE 3000
CMD ["node", "--max-semi-space-size=32", "backend/dist/main.js"]
