import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LANDING_LOCATIONS } from '../config/landing-locations';
import { landingPath, paths } from '../config/paths';
import { RootLayout } from './root-layout';

// One chunk per route.
const HomeRoute = lazy(() => import('./routes/home'));
const ServicesRoute = lazy(() => import('./routes/services'));
const RegionalServicesRoute = lazy(() => import('./routes/regional-services'));
const LandingRoute = lazy(() => import('./routes/computer-repair-landing'));
const AboutRoute = lazy(() => import('./routes/about'));
const ContactRoute = lazy(() => import('./routes/contact'));
const FaqRoute = lazy(() => import('./routes/faq'));
const ReviewsRoute = lazy(() => import('./routes/google-reviews'));
const RefundPolicyRoute = lazy(() => import('./routes/refund-policy'));
const TermsRoute = lazy(() => import('./routes/terms-of-service'));
const PrivacyRoute = lazy(() => import('./routes/privacy-policy'));
const UnsubscribeRoute = lazy(() => import('./routes/unsubscribe'));
const ComingSoonRoute = lazy(() => import('./routes/coming-soon'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

/** Request, payment, account and admin screens: built in a later issue, reachable now. */
const COMING_SOON_PATHS: readonly string[] = [
  paths.supportRequest,
  paths.supportRequestSteps,
  paths.payment,
  '/payment/:ticketId',
  paths.paymentSuccess,
  '/confirmation/:ticketId',
  paths.customerLogin,
  paths.customerRegister,
  paths.customerForgotPassword,
  paths.customerDashboard,
  '/ticket/:id',
  paths.admin,
  paths.adminLogin,
  paths.adminDashboard,
  paths.adminSetup,
];

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path={paths.services} element={<ServicesRoute />} />
        <Route path="/:area/services" element={<RegionalServicesRoute />} />
        {LANDING_LOCATIONS.map((location) => (
          <Route key={location.slug} path={landingPath(location.slug)} element={<LandingRoute slug={location.slug} />} />
        ))}
        <Route path={paths.about} element={<AboutRoute />} />
        <Route path={paths.contact} element={<ContactRoute />} />
        <Route path={paths.faq} element={<FaqRoute />} />
        <Route path={paths.reviews} element={<ReviewsRoute />} />
        <Route path={paths.refundPolicy} element={<RefundPolicyRoute />} />
        <Route path={paths.terms} element={<TermsRoute />} />
        <Route path={paths.privacy} element={<PrivacyRoute />} />
        <Route path={paths.unsubscribe} element={<UnsubscribeRoute />} />
        {COMING_SOON_PATHS.map((path) => (
          <Route key={path} path={path} element={<ComingSoonRoute />} />
        ))}
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
