import {
  ContactStrip,
  HomeContact,
  HomeHero,
  ServiceGrid,
  Testimonials,
  TrustedBy,
  WhyChooseUs,
} from '../../features/home/components/home-sections';

export default function HomeRoute() {
  return (
    <>
      <HomeHero />
      <ContactStrip />
      <TrustedBy />
      <WhyChooseUs />
      <ServiceGrid />
      <Testimonials />
      <HomeContact />
    </>
  );
}
