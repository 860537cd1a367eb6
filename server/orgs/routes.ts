import type { FastifyPluginAsync } from 'fastify';

export const organizationRoutes: FastifyPluginAsync = async () => {};
