export const DASHBOARD_PREFIX = '/api';
